"""Routes of the test authorization server: DOT's endpoints under /o/, and a plain login form.

The browser side of the sign-in flows is driven by tests, not people, so the forms take no
CSRF token (loopback only).
"""
from django.contrib.auth import authenticate, login
from django.http import HttpResponse, HttpResponseRedirect
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from oauth2_provider import views

FORM = """<!doctype html><title>Sign in</title>
<form method="post"><input name="username"><input name="password" type="password">
<input type="hidden" name="next" value="{next}"><button>Sign in</button></form>"""


@csrf_exempt
def sign_in(request):
    """POST username + password: the session cookie, then a redirect to `next`."""
    if request.method == "POST":
        user = authenticate(request, username=request.POST.get("username"), password=request.POST.get("password"))
        if user is None:
            return HttpResponse("wrong user name or password", status=403)
        login(request, user)
        return HttpResponseRedirect(request.POST.get("next") or "/o/authorized_tokens/")
    return HttpResponse(FORM.format(next=request.GET.get("next", "")))


# The forms a browser posts take no CSRF token here; DOT's own routes (and the names its views
# reverse) come after them, under the namespace DOT expects.
urlpatterns = [
    path("login/", sign_in),
    path("o/authorize/", csrf_exempt(views.AuthorizationView.as_view())),
    path("o/device/", csrf_exempt(views.DeviceUserCodeView.as_view())),
    path("o/device-confirm/<slug:client_id>/<slug:user_code>", csrf_exempt(views.DeviceConfirmView.as_view())),
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
]
