// Forms that keep their values and show the server's 422 next to the
// field it names. A detail starts with the request field it is about
// ("settings.wind.shear: ...", "values1: ...", "turbine_id: ..."); the
// slot [data-field-error=NAME] with the longest NAME that begins the
// detail receives it, else the form's [data-form-error] line. Forms
// marked data-api-form (plain POST forms) are sent with fetch as the same
// form encoding, asking for JSON, and on success the browser goes to
// data-api-form with {id} replaced by the created resource's id; htmx
// forms marked data-field-errors get their error responses placed the
// same way instead of in the page's flash slot. No inline scripts (the
// CSP forbids them).
(function () {
  "use strict";

  function csrf() {
    var h = document.body.getAttribute("hx-headers");
    try { return JSON.parse(h)["X-CSRF-Token"] || ""; } catch (e) { return ""; }
  }

  function showError(form, detail) {
    var best = null;
    form.querySelectorAll("[data-field-error]").forEach(function (p) {
      var f = p.getAttribute("data-field-error");
      var next = detail.charAt(f.length);
      if (detail.indexOf(f) === 0 && (next === ":" || next === "." || next === "[")) {
        if (!best || f.length > best.getAttribute("data-field-error").length) best = p;
      }
    });
    var slot = best || form.querySelector("[data-form-error], [data-job-error]");
    if (slot) {
      slot.textContent = detail;
      if (slot.scrollIntoView) slot.scrollIntoView({ block: "nearest" });
    }
  }

  function clearErrors(form) {
    form.querySelectorAll("[data-field-error], [data-form-error], [data-job-error]").forEach(function (p) { p.textContent = ""; });
  }

  window.turbinesimForms = { showError: showError, clearErrors: clearErrors, csrf: csrf };

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.matches || !form.matches("form[data-api-form]")) return;
    ev.preventDefault();
    clearErrors(form);
    var body = new URLSearchParams(new FormData(form));
    fetch(form.getAttribute("action"), {
      method: "POST", body: body,
      headers: { "Accept": "application/json", "X-CSRF-Token": csrf() }
    }).then(function (r) {
      return r.json().then(function (j) {
        if (r.ok && j.id) location.href = form.getAttribute("data-api-form").replace("{id}", encodeURIComponent(j.id));
        else showError(form, j.detail || ("HTTP " + r.status));
      }, function () { showError(form, "HTTP " + r.status); });
    }, function () { showError(form, "the service could not be reached; try again"); });
  });

  // htmx forms: an error answer is placed next to its field.
  document.addEventListener("htmx:beforeSwap", function (ev) {
    var form = ev.detail && ev.detail.elt;
    if (!form || !form.matches || !form.matches("form[data-field-errors]")) return;
    var xhr = ev.detail.xhr;
    if (!xhr || xhr.status < 400) return;
    var doc = new DOMParser().parseFromString(xhr.responseText, "text/html");
    var p = doc.querySelector("#error p");
    clearErrors(form);
    showError(form, p ? p.textContent.trim() : "HTTP " + xhr.status);
    ev.detail.shouldSwap = false;
  });
  document.addEventListener("htmx:beforeRequest", function (ev) {
    var form = ev.detail && ev.detail.elt;
    if (form && form.matches && form.matches("form[data-field-errors]")) clearErrors(form);
  });
})();
