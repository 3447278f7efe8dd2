"""Two-step sign-in: an authenticator app (TOTP) and recovery codes, on
django-otp; the admin asks staff for it when DEBUG is off (docs/site.md,
"Two-step sign-in")."""
