// Job pages: the live progress bar of a job (WebSocket /ws/jobs/{id},
// authenticated by the session cookie) and the turbine-run form, which
// posts JSON (or multipart with a wind file) to POST /jobs. No inline
// scripts (the CSP forbids them).
(function () {
  "use strict";

  function csrf() {
    var h = document.body.getAttribute("hx-headers");
    try { return JSON.parse(h)["X-CSRF-Token"] || ""; } catch (e) { return ""; }
  }

  // The page reloads to show a finished job's outputs, but not under a
  // person typing into one of its fields (a tag, a name): that would drop
  // what they typed. It waits until the field is left or emptied.
  function reloadWhenNotTyping() {
    var a = document.activeElement;
    if (a && (a.tagName === "INPUT" || a.tagName === "TEXTAREA") && a.value) {
      setTimeout(reloadWhenNotTyping, 1000);
      return;
    }
    location.reload();
  }

  function watch(el) {
    var id = el.getAttribute("data-job-ws");
    var status = el.getAttribute("data-status");
    if (["succeeded", "failed", "cancelled"].indexOf(status) >= 0) return;
    var proto = location.protocol === "https:" ? "wss://" : "ws://";
    var ws = new WebSocket(proto + location.host + "/ws/jobs/" + encodeURIComponent(id));
    ws.onmessage = function (ev) {
      var m = JSON.parse(ev.data);
      document.getElementById("job-bar").style.width = m.percent.toFixed(1) + "%";
      document.getElementById("job-status").textContent = m.status;
      document.getElementById("job-attempt").textContent = m.attempt;
      var eta = m.eta_seconds == null ? "" : ", ETA " + Math.round(m.eta_seconds) + " s";
      document.getElementById("job-progress").textContent =
        "t = " + m.sim_time.toFixed(2) + " / " + m.t_max.toFixed(2) + " s (" + m.percent.toFixed(1) + " %" + eta + ")";
      if (m.detail) document.getElementById("job-detail").textContent = m.detail;
      el.setAttribute("data-status", m.status);
      if (m.final) setTimeout(reloadWhenNotTyping, 300);
    };
  }

  // Errors are shown next to the field they name (assets/js/forms.js).
  var showError = window.turbinesimForms.showError;
  var clearErrors = window.turbinesimForms.clearErrors;

  function send(form, headers, body) {
    headers["Accept"] = "application/json";
    headers["X-CSRF-Token"] = csrf();
    fetch("/jobs", { method: "POST", headers: headers, body: body }).then(function (r) {
      return r.json().then(function (j) {
        if (r.ok) location.href = "/jobs/" + j.id;
        else showError(form, j.detail || ("HTTP " + r.status));
      }, function () { showError(form, "HTTP " + r.status); });
    }, function () { showError(form, "the service could not be reached; try again"); });
  }

  function tagList(v) {
    return (v || "").split(",").map(function (t) { return t.trim(); }).filter(function (t) { return t !== ""; });
  }

  // The turbine-run form sends the request the API takes: JSON for steady
  // wind or a wind file of an earlier run; multipart (turbine_id, name,
  // tags, settings as JSON, wind_file) when a wind file is uploaded.
  // Empty optional fields are left out of the request, never sent as 0.
  function turbineForm(form) {
    var kinds = form.querySelectorAll('input[name="wind_kind"]');
    function showKind() {
      var kind = form.querySelector('input[name="wind_kind"]:checked').value;
      form.querySelectorAll("[data-wind]").forEach(function (box) {
        var on = box.getAttribute("data-wind") === kind;
        box.hidden = !on;
        box.querySelectorAll("input").forEach(function (i) { i.disabled = !on; });
      });
    }
    kinds.forEach(function (k) { k.addEventListener("change", showKind); });
    showKind();

    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      clearErrors(form);
      var f = new FormData(form);
      var num = function (k) { var v = f.get(k); return v === "" || v == null ? undefined : Number(v); };
      var kind = f.get("wind_kind");
      var wind = {};
      if (kind === "steady") wind = { speed: num("speed"), shear: num("shear") };
      if (kind === "job") wind = { file: { job_id: f.get("wind_job_id") || "", path: f.get("wind_path") || "" } };
      var settings = { t_max: num("t_max"), dt: num("dt"), wind: wind };
      var name = (f.get("name") || "").trim();
      var tags = tagList(f.get("tags"));
      if (kind === "upload") {
        var file = form.querySelector('input[name="wind_file"]').files[0];
        if (!file) { showError(form, "wind_file: choose a wind file to upload"); return; }
        var body = new FormData();
        body.append("turbine_id", f.get("turbine_id") || "");
        if (name) body.append("name", name);
        if (tags.length) body.append("tags", tags.join(","));
        body.append("settings", JSON.stringify(settings));
        body.append("wind_file", file, file.name);
        send(form, {}, body);
        return;
      }
      var req = { turbine_id: f.get("turbine_id") || "", settings: settings };
      if (name) req.name = name;
      if (tags.length) req.tags = tags;
      send(form, { "Content-Type": "application/json" }, JSON.stringify(req));
    });
  }

  // The ZIP form posts its multipart fields as they are; errors are shown
  // next to their field and the chosen file stays selected.
  function zipForm(form) {
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      clearErrors(form);
      var body = new FormData(form);
      body.delete("_csrf");
      if (!form.querySelector('input[name="file"]').files.length) {
        showError(form, "file: choose the ZIP of the input files");
        return;
      }
      send(form, {}, body);
    });
  }

  function init() {
    document.querySelectorAll("[data-job-ws]").forEach(watch);
    document.querySelectorAll("[data-job-turbine-form]").forEach(turbineForm);
    document.querySelectorAll("[data-job-zip-form]").forEach(zipForm);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
