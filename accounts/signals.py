"""What the accounts tell the apps above them.

* ``mail_queued(mail_id=)``: a message waits in the outbox (sent after its
  commit); `timers` receives it and has it sent (the Celery task
  ``accounts.mail_send``, or the in-process ticker's mail job).
* ``conta_parts(request=, user=)``: the Conta page asks the apps above for
  their sections (HTML), shown after its own: the person's data (privacy),
  for instance. A receiver returns ``str`` (safe HTML) or ``None``.
"""

from django.dispatch import Signal

mail_queued = Signal()
conta_parts = Signal()
