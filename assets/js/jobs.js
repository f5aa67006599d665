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
      if (m.final) setTimeout(function () { location.reload(); }, 300);
    };
  }

  // The turbine-run form sends the request the API takes: JSON for steady
  // wind; multipart (turbine_id, settings as JSON, wind_file) when a wind
  // file is uploaded. A 422 detail names its field first ("settings.wind.
  // shear: ..."), so it is shown next to that field.
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

    function showError(detail) {
      var slots = form.querySelectorAll("[data-field-error]");
      var best = null;
      slots.forEach(function (p) {
        var f = p.getAttribute("data-field-error");
        if (detail.indexOf(f + ":") === 0 && (!best || f.length > best.getAttribute("data-field-error").length)) best = p;
      });
      (best || form.querySelector("[data-job-error]")).textContent = detail;
    }

    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      form.querySelectorAll("[data-field-error], [data-job-error]").forEach(function (p) { p.textContent = ""; });
      var f = new FormData(form);
      var num = function (k) { var v = f.get(k); return v === "" || v == null ? undefined : Number(v); };
      var upload = f.get("wind_kind") === "upload";
      var settings = { t_max: num("t_max"), dt: num("dt"), wind: upload ? {} : { speed: num("speed"), shear: num("shear") } };
      var headers = { "Accept": "application/json", "X-CSRF-Token": csrf() };
      var body;
      if (upload) {
        var file = form.querySelector('input[name="wind_file"]').files[0];
        if (!file) { showError("wind_file: choose a wind file to upload"); return; }
        body = new FormData();
        body.append("turbine_id", f.get("turbine_id") || "");
        body.append("settings", JSON.stringify(settings));
        body.append("wind_file", file, file.name);
      } else {
        headers["Content-Type"] = "application/json";
        body = JSON.stringify({ turbine_id: f.get("turbine_id") || "", settings: settings });
      }
      fetch("/jobs", { method: "POST", headers: headers, body: body }).then(function (r) {
        return r.json().then(function (j) {
          if (r.ok) location.href = "/jobs/" + j.id;
          else showError(j.detail || ("HTTP " + r.status));
        }, function () { showError("HTTP " + r.status); });
      }, function (e) { showError(String(e)); });
    });
  }

  function init() {
    document.querySelectorAll("[data-job-ws]").forEach(watch);
    document.querySelectorAll("[data-job-turbine-form]").forEach(turbineForm);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
