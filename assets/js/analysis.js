// Results pages (views/analysis.templ): the time-series chart with zoom
// that asks the time-series endpoint for finer data in the visible window,
// the statistics table of that window, the Welch PSD with rotor harmonics,
// and the comparison of several jobs. Names from output files reach the
// page only through textContent and ECharts options, never as HTML.
(function () {
  "use strict";

  var POINTS = 2000; // points per channel asked for in any window
  var MAX_SERIES_POINTS = 400000; // channels × points limit of the time-series endpoint

  function csrf() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRF-Token"] || "";
    } catch (e) {
      return "";
    }
  }

  function post(path, body, accept) {
    return fetch(path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept": accept || "application/json", "X-CSRF-Token": csrf() },
      body: JSON.stringify(body)
    }).then(function (r) {
      if (!r.ok) {
        return r.json().then(function (e) { throw new Error(e.detail || r.statusText); });
      }
      return accept === "text/csv" ? r.text() : r.json();
    });
  }

  function showError(err) {
    var el = document.getElementById("analysis-error");
    if (el) {
      el.textContent = err.message || String(err);
    }
  }

  // fmt shows a statistic to five significant digits without trailing
  // zeros (3423.9 kW, 10 rpm, 0.78093 rpm; exponents past 1e5 and below
  // 1e-3): a fixed four decimals gave "3423.9108" and "10.0000".
  function fmt(v) {
    if (v === undefined || v === null) {
      return "";
    }
    if (Math.abs(v) >= 1e5 || (Math.abs(v) < 1e-3 && v !== 0)) {
      return v.toExponential(4);
    }
    return String(Number(v.toPrecision(5)));
  }

  // pairs turns one series of an envelope answer into [t, v] points.
  function pairs(s) {
    var out = new Array(s.values.length);
    for (var i = 0; i < s.values.length; i++) {
      out[i] = [s.time[i], s.values[i]];
    }
    return out;
  }

  function factor(cfg, t0, t1) {
    var rows = cfg.dt > 0 ? (t1 - t0) / cfg.dt + 1 : cfg.rows;
    return Math.max(1, Math.ceil(rows / POINTS));
  }

  function resultsPage(cfg) {
    var base = "/analysis/jobs/" + encodeURIComponent(cfg.job_id);
    var el = document.getElementById("ts-chart");
    var chart = echarts.init(el);
    var psd = echarts.init(document.getElementById("psd-chart"));
    var picker = document.getElementById("channel-picker");
    var coarse = []; // full-range envelope per channel
    var channels = [];
    var window_ = [cfg.t_start, cfg.t_end];
    var timer = null;
    var generation = 0;

    function selected() {
      return Array.prototype.filter.call(picker.options, function (o) { return o.selected; })
        .map(function (o) { return o.value; });
    }

    function unitOf(name) {
      for (var i = 0; i < cfg.channels.length; i++) {
        if (cfg.channels[i].name === name) {
          return cfg.channels[i].unit;
        }
      }
      return "";
    }

    function plot() {
      channels = selected();
      if (channels.length === 0) {
        return;
      }
      el.dataset.plotted = "0";
      el.dataset.fine = "0";
      var gen = ++generation;
      post(base + "/time-series", { channels: channels, method: "envelope", downsample_factor: factor(cfg, cfg.t_start, cfg.t_end) })
        .then(function (ts) {
          if (gen !== generation) {
            return;
          }
          coarse = ts.series.map(pairs);
          var units = [];
          ts.series.forEach(function (s) {
            if (units.indexOf(s.unit) < 0) {
              units.push(s.unit);
            }
          });
          var yAxis = units.map(function (u, i) {
            return { type: "value", name: u, scale: true, position: i === 0 ? "left" : "right", offset: i > 1 ? 60 * (i - 1) : 0 };
          });
          chart.setOption({
            animation: false,
            tooltip: { trigger: "axis" },
            legend: { data: channels, top: 0 },
            grid: { left: 70, right: 60 + 60 * Math.max(0, units.length - 2), bottom: 90 },
            xAxis: { type: "value", name: "Time (s)", nameLocation: "middle", nameGap: 28, min: cfg.t_start, max: cfg.t_end },
            yAxis: yAxis,
            dataZoom: [{ type: "inside", xAxisIndex: 0, filterMode: "none" }, { type: "slider", xAxisIndex: 0, filterMode: "none" }],
            series: ts.series.map(function (s, i) {
              return { name: s.name, type: "line", showSymbol: false, yAxisIndex: units.indexOf(s.unit), data: coarse[i] };
            })
          }, true);
          el.dataset.plotted = "1";
          window_ = [cfg.t_start, cfg.t_end];
          statistics();
          spectrum();
        })
        .catch(showError);
    }

    // refine replaces the visible window's points by a finer series.
    function refine() {
      var dz = chart.getOption().dataZoom[0];
      var t0 = dz.startValue, t1 = dz.endValue;
      if (typeof t0 !== "number" || typeof t1 !== "number") {
        var span = cfg.t_end - cfg.t_start;
        t0 = cfg.t_start + span * dz.start / 100;
        t1 = cfg.t_start + span * dz.end / 100;
      }
      window_ = [t0, t1];
      var gen = generation;
      post(base + "/time-series", { channels: channels, method: "envelope", downsample_factor: factor(cfg, t0, t1), t_start: t0, t_end: t1 })
        .then(function (ts) {
          if (gen !== generation) {
            return;
          }
          var points = 0;
          chart.setOption({
            series: ts.series.map(function (s, i) {
              var fine = pairs(s);
              points += fine.length;
              var before = coarse[i].filter(function (p) { return p[0] < t0; });
              var after = coarse[i].filter(function (p) { return p[0] > t1; });
              return { data: before.concat(fine, after) };
            })
          });
          el.dataset.fineStart = String(t0);
          el.dataset.fineEnd = String(t1);
          el.dataset.finePoints = String(points);
          el.dataset.fine = "1";
          statistics();
        })
        .catch(showError);
    }

    chart.on("datazoom", function () {
      clearTimeout(timer);
      timer = setTimeout(refine, 250);
    });

    function statistics() {
      var body = document.getElementById("stats-body");
      post(base + "/statistics", { channels: channels, t_start: window_[0], t_end: window_[1], include_extreme_times: true })
        .then(function (st) {
          body.textContent = "";
          st.channels.forEach(function (c) {
            var tr = document.createElement("tr");
            tr.className = "border-b border-slate-100";
            [c.name, c.unit, fmt(c.min), fmt(c.mean), fmt(c.max), fmt(c.std), fmt(c.time_of_min), fmt(c.time_of_max)].forEach(function (v) {
              var td = document.createElement("td");
              td.textContent = v;
              tr.appendChild(td);
            });
            body.appendChild(tr);
          });
          document.getElementById("stats-window").textContent =
            "t = " + st.t_start.toFixed(2) + " … " + st.t_end.toFixed(2) + " s";
        })
        .catch(showError);
    }

    function spectrum() {
      var pel = document.getElementById("psd-chart");
      var name = document.getElementById("psd-channel").value;
      pel.dataset.plotted = "0";
      post(base + "/spectrum", { channel: name, method: "welch" })
        .then(function (sp) {
          var s = sp.spectra[0];
          var data = [];
          for (var i = 1; i < s.frequency.length; i++) {
            if (s.values[i] > 0) {
              data.push([s.frequency[i], s.values[i]]);
            }
          }
          var fmax = s.frequency[s.frequency.length - 1];
          sp.harmonics.forEach(function (h) { fmax = Math.max(Math.min(fmax, 3 * h.frequency), h.frequency * 1.2); });
          psd.setOption({
            animation: false,
            tooltip: { trigger: "axis" },
            grid: { left: 80, right: 30 },
            // Three significant digits: the last label is the axis maximum
            // itself, which read "1.4229927020388828".
            xAxis: { type: "value", name: "Frequency (Hz)", nameLocation: "middle", nameGap: 28, min: 0,
              max: Number(Math.min(fmax, s.frequency[s.frequency.length - 1]).toPrecision(3)) },
            yAxis: { type: "log", name: s.name + " (" + (s.unit ? s.unit + ")²/Hz" : "1/Hz)") },
            dataZoom: [{ type: "inside", xAxisIndex: 0, filterMode: "none" }],
            series: [{
              name: s.name, type: "line", showSymbol: false, data: data,
              markLine: {
                symbol: "none", silent: true, label: { formatter: "{b}" },
                data: sp.harmonics.map(function (h) { return { name: h.label, xAxis: h.frequency }; })
              }
            }]
          }, true);
          pel.dataset.harmonics = sp.harmonics.map(function (h) { return h.label; }).join(",");
          pel.dataset.plotted = "1";
        })
        .catch(showError);
    }

    // saveCSV posts a result request asking for CSV and saves the answer.
    function saveCSV(path, body, filename) {
      post(base + path, body, "text/csv")
        .then(function (text) {
          var a = document.createElement("a");
          a.href = URL.createObjectURL(new Blob([text], { type: "text/csv" }));
          a.download = filename + "-" + cfg.job_id + ".csv";
          document.body.appendChild(a);
          a.click();
          a.remove();
        })
        .catch(showError);
    }

    document.getElementById("plot-button").addEventListener("click", plot);
    document.getElementById("psd-channel").addEventListener("change", spectrum);
    document.getElementById("stats-csv").addEventListener("click", function () {
      saveCSV("/statistics", { channels: channels, t_start: window_[0], t_end: window_[1], include_extreme_times: true }, "statistics");
    });
    // The visible window's samples, decimated only as far as the point
    // limit of the time-series endpoint needs.
    document.getElementById("series-csv").addEventListener("click", function () {
      var rows = cfg.dt > 0 ? (window_[1] - window_[0]) / cfg.dt + 1 : cfg.rows;
      saveCSV("/time-series", { channels: channels, method: "decimate", t_start: window_[0], t_end: window_[1],
        downsample_factor: Math.max(1, Math.ceil(rows * channels.length / MAX_SERIES_POINTS)) }, "time-series");
    });
    document.getElementById("psd-csv").addEventListener("click", function () {
      saveCSV("/spectrum", { channel: document.getElementById("psd-channel").value, method: "welch" }, "spectrum");
    });
    new ResizeObserver(function () { chart.resize(); psd.resize(); }).observe(el);
    plot();
  }

  function comparePage(cfg) {
    var el = document.getElementById("compare-chart");
    var chart = echarts.init(el);
    Promise.all(cfg.jobs.map(function (id) {
      return post("/analysis/jobs/" + encodeURIComponent(id) + "/time-series",
        { channels: [cfg.channel], method: "envelope", downsample_factor: 1 })
        .catch(function () {
          return post("/analysis/jobs/" + encodeURIComponent(id) + "/time-series",
            { channels: [cfg.channel], method: "envelope", downsample_factor: 50 });
        })
        .then(function (ts) { return { id: id, s: ts.series[0] }; });
    })).then(function (all) {
      chart.setOption({
        animation: false,
        tooltip: { trigger: "axis" },
        legend: { data: all.map(function (a) { return a.id.slice(0, 8); }) },
        xAxis: { type: "value", name: "Time (s)" },
        yAxis: { type: "value", name: all.length ? all[0].s.unit : "", scale: true },
        dataZoom: [{ type: "inside", filterMode: "none" }, { type: "slider", filterMode: "none" }],
        series: all.map(function (a) {
          return { name: a.id.slice(0, 8), type: "line", showSymbol: false, data: pairs(a.s) };
        })
      });
      el.dataset.plotted = String(all.length);
    }).catch(showError);
  }

  document.addEventListener("DOMContentLoaded", function () {
    var rc = document.getElementById("analysis-config");
    if (rc) {
      resultsPage(JSON.parse(rc.textContent));
    }
    var cc = document.getElementById("compare-config");
    if (cc) {
      comparePage(JSON.parse(cc.textContent));
    }
  });
})();
