"""Settings of the test authorization server (django-oauth-toolkit), loopback only.

Read by serve.py; its state (SQLite) lives in STRATA_OAUTH_DIR, never in the repository.
"""
import os

STATE = os.environ["STRATA_OAUTH_DIR"]
PORT = os.environ["STRATA_OAUTH_PORT"]

SECRET_KEY = os.environ["STRATA_OAUTH_SECRET_KEY"]
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
ROOT_URLCONF = "urls"
USE_TZ = True
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "oauth2_provider",
]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
TEMPLATES = [{"BACKEND": "django.template.backends.django.DjangoTemplates", "APP_DIRS": True}]
# Tests run in parallel: writers wait for each other instead of failing with "database is locked".
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.path.join(STATE, "db.sqlite3"),
        "OPTIONS": {"timeout": 30, "transaction_mode": "IMMEDIATE"},
    }
}
# Test accounts only: a fast hash (Django's default costs a second of CPU per check).
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
LOGIN_URL = "/login/"
LOGGING = {
    "version": 1,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"django.server": {"handlers": ["console"], "level": "INFO"}},
}

OAUTH2_PROVIDER = {
    # A refresh token is good for one renewal: the next one comes with the new access token.
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_GRACE_PERIOD_SECONDS": 0,
    # Public clients must use PKCE (S256), as RFC 8252 native apps do.
    "PKCE_REQUIRED": True,
    "SCOPES": {"read": "Read files", "write": "Write files", "introspection": "Introspect tokens"},
    "DEFAULT_SCOPES": ["read", "write"],
    "OAUTH_DEVICE_VERIFICATION_URI": f"http://127.0.0.1:{PORT}/o/device/",
    "DEVICE_FLOW_INTERVAL": 1,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": False,
}
