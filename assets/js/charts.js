// Charts of the turbine simulation service.
//
// A page declares a chart as an element <div data-echarts="ID"> plus a
// <script type="application/json" id="ID"> block holding the ECharts option
// (written by templ.JSONScript, so user strings are escaped). This file turns
// every such element into a chart on first load and after every htmx swap,
// and disposes of charts whose element htmx removes.
(function () {
  "use strict";

  function init(el) {
    if (typeof echarts === "undefined" || el.dataset.echartsReady === "1") {
      return;
    }
    var source = document.getElementById(el.dataset.echarts);
    if (!source) {
      return;
    }
    var chart = echarts.init(el);
    chart.setOption(JSON.parse(source.textContent));
    el.dataset.echartsReady = "1";
    if (typeof ResizeObserver !== "undefined") {
      new ResizeObserver(function () { chart.resize(); }).observe(el);
    }
  }

  // htmx passes each swapped top-level element: the chart element is often
  // the root itself, so check it as well as its descendants.
  function scan(root) {
    if (root.matches && root.matches("[data-echarts]")) {
      init(root);
    }
    if (root.querySelectorAll) {
      root.querySelectorAll("[data-echarts]").forEach(init);
    }
  }

  if (window.htmx) {
    htmx.onLoad(scan);
    document.addEventListener("htmx:beforeCleanupElement", function (evt) {
      var el = evt.target;
      if (typeof echarts !== "undefined" && el.dataset && el.dataset.echarts) {
        var chart = echarts.getInstanceByDom(el);
        if (chart) {
          chart.dispose();
        }
      }
    });
  } else {
    document.addEventListener("DOMContentLoaded", function () { scan(document); });
  }
})();
