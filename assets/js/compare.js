// Run selection on the lists of runs (jobs list, batch page): tick runs,
// then "Compare" opens them together in the results workbench
// (/analysis/compare?run=<id>&run=<id>, which names them by run name).
// The ticks survive the list's htmx refreshes: the selection is kept here
// and re-applied after every swap.
(function () {
  "use strict";

  var selected = [];
  var MAX = 8;

  function boxes() {
    return document.querySelectorAll("input[data-compare-run]");
  }

  function sync() {
    boxes().forEach(function (b) {
      b.checked = selected.indexOf(b.value) >= 0;
    });
    document.querySelectorAll("[data-compare-button]").forEach(function (btn) {
      btn.disabled = selected.length === 0;
      btn.textContent = selected.length > 1 ? "Compare " + selected.length + " runs" : (selected.length === 1 ? "Open 1 run" : "Compare selected runs");
    });
    document.querySelectorAll("[data-compare-note]").forEach(function (p) {
      p.textContent = selected.length >= MAX ? "At most " + MAX + " runs open together." : "";
    });
  }

  document.addEventListener("change", function (e) {
    var b = e.target;
    if (!b.matches || !b.matches("input[data-compare-run]")) {
      return;
    }
    var i = selected.indexOf(b.value);
    if (b.checked && i < 0) {
      if (selected.length >= MAX) {
        b.checked = false;
      } else {
        selected.push(b.value);
      }
    } else if (!b.checked && i >= 0) {
      selected.splice(i, 1);
    }
    sync();
  });

  document.addEventListener("submit", function (e) {
    var f = e.target;
    if (!f.matches || !f.matches("form[data-compare-form]")) {
      return;
    }
    e.preventDefault();
    if (selected.length === 0) {
      return;
    }
    var q = new URLSearchParams();
    selected.forEach(function (id) { q.append("run", id); });
    location.assign(f.getAttribute("action") + "?" + q.toString());
  });

  document.addEventListener("htmx:afterSwap", sync);
  document.addEventListener("DOMContentLoaded", sync);
})();
