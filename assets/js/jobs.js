// Job pages: the live progress bar of a job (WebSocket /ws/jobs/{id},
// authenticated by the session cookie) and the turbine-run form, which
// posts JSON to POST /jobs. No inline scripts (the CSP forbids them).
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

  function turbineForm(form) {
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var f = new FormData(form);
      var num = function (k) { var v = f.get(k); return v === "" || v == null ? undefined : Number(v); };
      var body = {
        turbine_id: f.get("turbine_id"),
        settings: { t_max: num("t_max"), dt: num("dt"), wind: { speed: num("speed"), shear: num("shear") } }
      };
      fetch("/jobs", {
        method: "POST",
        headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRF-Token": csrf() },
        body: JSON.stringify(body)
      }).then(function (r) {
        return r.json().then(function (j) {
          if (r.ok) location.href = "/jobs/" + j.id;
          else form.querySelector("[data-job-error]").textContent = j.detail;
        });
      });
    });
  }

  function init() {
    document.querySelectorAll("[data-job-ws]").forEach(watch);
    document.querySelectorAll("[data-job-turbine-form]").forEach(turbineForm);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
