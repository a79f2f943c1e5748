"""Starts the test authorization server on 127.0.0.1:STRATA_OAUTH_PORT.

Makes its database, the test user (STRATA_DAV_USER / STRATA_DAV_PASS) and four clients, then
serves until stopped:
- strata-cli: public, authorization code with PKCE, redirect http://127.0.0.1/callback (any port,
  RFC 8252 §7.3; DOT ignores the port of a loopback redirect), consent skipped;
- strata-device: public, device authorization grant (RFC 8628);
- strata-tests: confidential (secret STRATA_DAV_PASS), resource owner password grant, for tests
  that need tokens without a browser;
- strata-resource: confidential (secret STRATA_DAV_PASS), the resource server's identity at the
  introspection endpoint (RFC 7662).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "settings")

import django  # noqa: E402
from django.core.management import call_command  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from oauth2_provider.models import Application  # noqa: E402

call_command("migrate", verbosity=0, interactive=False)
user_name, password = os.environ["STRATA_DAV_USER"], os.environ["STRATA_DAV_PASS"]
User = get_user_model()
user, _ = User.objects.get_or_create(username=user_name)
user.set_password(password)
user.save()


def client(client_id, client_type, grant, secret="", redirect="", skip=False):
    Application.objects.filter(client_id=client_id).delete()
    Application.objects.create(
        client_id=client_id, name=client_id, client_type=client_type, authorization_grant_type=grant,
        client_secret=secret, hash_client_secret=False, redirect_uris=redirect, skip_authorization=skip, user=user,
        algorithm="",
    )


client("strata-cli", Application.CLIENT_PUBLIC, Application.GRANT_AUTHORIZATION_CODE,
       redirect="http://127.0.0.1/callback", skip=True)
client("strata-device", Application.CLIENT_PUBLIC, Application.GRANT_DEVICE_CODE)
client("strata-tests", Application.CLIENT_CONFIDENTIAL, Application.GRANT_PASSWORD, secret=password)
client("strata-resource", Application.CLIENT_CONFIDENTIAL, Application.GRANT_CLIENT_CREDENTIALS, secret=password)

call_command("runserver", f"127.0.0.1:{os.environ['STRATA_OAUTH_PORT']}", use_reloader=False, use_threading=True)
