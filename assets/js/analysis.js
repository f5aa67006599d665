// Results workbench (views/analysis.templ, WorkbenchPage): the channel
// picker (type to filter by name, unit or module group; recently used
// channels first; INVALID channels listed and marked but never plotted),
// stacked time-series subplots on one shared time axis or an XY plot with
// every run of the page overlaid under its name, zoom that asks the
// time-series endpoint for finer data in the visible window, the
// statistics of that window per run and channel, the Welch PSD of the runs
// with rotor harmonics, PNG/SVG export of the plot and CSV of the visible
// samples. The page's state (runs, channels, window, plot type) is kept in
// its URL with history.replaceState, so a reload or a shared link shows
// the same plot. Names from output files reach the page only through
// textContent and ECharts options, never as HTML.
(function () {
  "use strict";

  var POINTS = 2000; // points per channel asked for in any window
  var MAX_SERIES_POINTS = 400000; // channels × points limit of the time-series endpoint
  var PANEL = 170; // px per stacked subplot
  var RECENT_KEY = "turbinesim.recent-channels";
  var RECENT_MAX = 30;
  var RUN_COLORS = ["#0369a1", "#c2410c", "#15803d", "#7e22ce", "#be123c", "#a16207", "#0f766e", "#4338ca"];

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

  function clearError() {
    var el = document.getElementById("analysis-error");
    if (el) {
      el.textContent = "";
    }
  }

  // fmt shows a statistic to five significant digits without trailing
  // zeros (3423.9 kW, 10 rpm, 0.78093 rpm; exponents past 1e5 and below
  // 1e-3).
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

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) {
      e.className = cls;
    }
    if (text !== undefined) {
      e.textContent = text;
    }
    return e;
  }

  function download(href, filename) {
    var a = document.createElement("a");
    a.href = href;
    a.download = filename;
    document.body.appendChild(a);
    a.click();
    a.remove();
  }

  function csvCell(v) {
    var s = String(v);
    if (/[",\n]/.test(s)) {
      s = '"' + s.replace(/"/g, '""') + '"';
    }
    // A spreadsheet must show a channel name, not evaluate it.
    if (/^[=+\-@]/.test(s) && isNaN(Number(s))) {
      s = "'" + s;
    }
    return s;
  }

  function fileSafe(s) {
    return String(s).replace(/[^A-Za-z0-9._+-]+/g, "_").slice(0, 80);
  }

  function recentChannels() {
    try {
      var r = JSON.parse(localStorage.getItem(RECENT_KEY) || "[]");
      return Array.isArray(r) ? r : [];
    } catch (e) {
      return [];
    }
  }

  function useChannel(name) {
    var r = recentChannels().filter(function (n) { return n !== name; });
    r.unshift(name);
    try {
      localStorage.setItem(RECENT_KEY, JSON.stringify(r.slice(0, RECENT_MAX)));
    } catch (e) {
      // Storage may be off; the picker then keeps the file's order.
    }
  }

  function workbench(cfg) {
    var runs = cfg.runs;
    var byName = {};
    cfg.channels.forEach(function (c) { byName[c.name] = c; });
    var groups = [];
    cfg.channels.forEach(function (c) {
      if (groups.indexOf(c.group) < 0) {
        groups.push(c.group);
      }
    });
    // Longest first, so "blade 1" is taken before any shorter group.
    groups.sort(function (a, b) { return b.length - a.length; });

    var params = new URLSearchParams(location.search);
    var state = {
      channels: (params.get("ch") || cfg.channel || "").split(",").filter(function (n) { return byName[n]; }),
      plot: ["channel", "unit", "xy"].indexOf(params.get("plot")) >= 0 ? params.get("plot") : "channel",
      x: byName[params.get("x")] ? params.get("x") : "",
      psd: byName[params.get("psd")] ? params.get("psd") : "",
      t0: params.has("t0") ? Number(params.get("t0")) : null,
      t1: params.has("t1") ? Number(params.get("t1")) : null
    };
    if (state.channels.length === 0 && !params.has("ch")) {
      state.channels = cfg.default.slice();
    }
    if (!(state.t0 < state.t1)) {
      state.t0 = state.t1 = null;
    }

    // writeState puts the state in the URL: runs beyond the page's own by
    // name, channels, plot type, x channel, PSD channel and window.
    function writeState() {
      var q = new URLSearchParams();
      runs.slice(cfg.fixed).forEach(function (r) { q.append("run", r.name); });
      q.set("ch", state.channels.join(","));
      if (state.plot !== "channel") {
        q.set("plot", state.plot);
      }
      if (state.plot === "xy" && state.x) {
        q.set("x", state.x);
      }
      if (state.psd) {
        q.set("psd", state.psd);
      }
      if (state.t0 !== null) {
        q.set("t0", String(Number(state.t0.toFixed(3))));
        q.set("t1", String(Number(state.t1.toFixed(3))));
      }
      history.replaceState(null, "", cfg.path + "?" + q.toString());
    }

    function plotted() {
      return state.channels.filter(function (n) { return !byName[n].invalid; });
    }

    function forRun(run, names) {
      return names.filter(function (n) { return !run.missing || run.missing.indexOf(n) < 0; });
    }

    // ---- runs bar -------------------------------------------------------
    function reloadWith(names) {
      var q = new URLSearchParams(location.search);
      q.delete("run");
      q.delete("jobs");
      q.delete("channel");
      names.forEach(function (n) { q.append("run", n); });
      location.assign(cfg.path + "?" + q.toString());
    }

    function drawRuns() {
      var list = document.getElementById("run-list");
      list.textContent = "";
      runs.forEach(function (r, i) {
        var li = el("li", "flex items-center gap-1 rounded border border-slate-300 px-2 py-1");
        li.dataset.run = r.id;
        var sw = el("span", "", "■");
        sw.style.color = RUN_COLORS[i % RUN_COLORS.length];
        li.appendChild(sw);
        var a = el("a", "text-sky-700", r.name);
        a.href = "/jobs/" + encodeURIComponent(r.id);
        li.appendChild(a);
        if (i >= cfg.fixed) {
          var x = el("button", "text-slate-500", "×");
          x.type = "button";
          x.title = "remove " + r.name;
          x.addEventListener("click", function () {
            reloadWith(runs.slice(cfg.fixed).filter(function (o) { return o !== r; }).map(function (o) { return o.name; }));
          });
          li.appendChild(x);
        }
        list.appendChild(li);
      });
    }

    function addRun() {
      var v = document.getElementById("run-add").value.trim();
      if (v) {
        reloadWith(runs.slice(cfg.fixed).map(function (o) { return o.name; }).concat([v]));
      }
    }
    document.getElementById("run-add-button").addEventListener("click", addRun);
    document.getElementById("run-add").addEventListener("keydown", function (e) {
      if (e.key === "Enter") {
        e.preventDefault();
        addRun();
      }
    });

    // ---- channel picker -------------------------------------------------
    var filter = document.getElementById("channel-filter");
    var listEl = document.getElementById("channel-list");
    var shown = [];

    // matches: every word of the query must be found in the channel's
    // name, unit or group; a group named in full ("blade 2", "tower")
    // selects that group.
    function matcher(query) {
      var q = query.toLowerCase().trim();
      var group = "";
      for (var i = 0; i < groups.length; i++) {
        var at = q.indexOf(groups[i]);
        if (at >= 0 && groups[i].indexOf(" ") >= 0 || at >= 0 && q.split(/\s+/).indexOf(groups[i]) >= 0) {
          group = groups[i];
          q = (q.slice(0, at) + " " + q.slice(at + groups[i].length)).trim();
          break;
        }
      }
      var words = q ? q.split(/\s+/) : [];
      return function (c) {
        if (group && c.group !== group) {
          return false;
        }
        var name = c.name.toLowerCase(), unit = c.unit.toLowerCase(), g = c.group;
        return words.every(function (w) { return name.indexOf(w) >= 0 || unit.indexOf(w) >= 0 || g.indexOf(w) >= 0; });
      };
    }

    function drawPicker() {
      var match = matcher(filter.value);
      var recent = recentChannels();
      var rank = {};
      recent.forEach(function (n, i) { rank[n] = i; });
      shown = cfg.channels.filter(match);
      shown.sort(function (a, b) {
        var ra = a.name in rank ? rank[a.name] : RECENT_MAX, rb = b.name in rank ? rank[b.name] : RECENT_MAX;
        return ra - rb;
      });
      listEl.textContent = "";
      var frag = document.createDocumentFragment();
      shown.forEach(function (c) {
        var li = el("li", "border-b border-slate-100 px-2 py-1");
        li.dataset.channel = c.name;
        var label = el("label", "flex items-center gap-2");
        var box = document.createElement("input");
        box.type = "checkbox";
        box.checked = state.channels.indexOf(c.name) >= 0;
        box.addEventListener("change", function () { toggle(c.name, box.checked); });
        label.appendChild(box);
        label.appendChild(el("span", "font-mono", c.name));
        if (c.invalid) {
          var bad = el("span", "text-xs text-red-700", "INVALID");
          bad.title = "OpenFAST wrote this channel as INVALID (zeros in place of a channel the model does not have): listed in the statistics, never plotted";
          label.appendChild(bad);
          li.dataset.invalid = "1";
        } else if (c.unit) {
          label.appendChild(el("span", "text-slate-500", c.unit));
        }
        if (c.name in rank) {
          label.appendChild(el("span", "text-xs text-sky-700", "recent"));
        }
        label.appendChild(el("span", "text-xs text-slate-500", c.group));
        li.appendChild(label);
        frag.appendChild(li);
      });
      listEl.appendChild(frag);
      document.getElementById("channel-count").textContent =
        shown.length + " of " + cfg.channels.length + " channels" + (filter.value ? "" : " · type to filter, Enter adds the first");
    }

    function drawSelected() {
      var ul = document.getElementById("selected-channels");
      ul.textContent = "";
      state.channels.forEach(function (n) {
        var li = el("li", "flex items-center gap-1 rounded bg-slate-100 px-2 py-1");
        li.dataset.channel = n;
        li.appendChild(el("span", "font-mono", n));
        if (byName[n].invalid) {
          li.appendChild(el("span", "text-red-700", "INVALID"));
        }
        var x = el("button", "text-slate-500", "×");
        x.type = "button";
        x.title = "remove " + n;
        x.addEventListener("click", function () { toggle(n, false); });
        li.appendChild(x);
        ul.appendChild(li);
      });
    }

    function toggle(name, on) {
      var i = state.channels.indexOf(name);
      if (on && i < 0) {
        state.channels.push(name);
        useChannel(name);
      } else if (!on && i >= 0) {
        state.channels.splice(i, 1);
      }
      drawControls();
      plot();
    }

    // drawControls redraws what follows the selected channels and keeps
    // the URL current.
    function drawControls() {
      drawSelected();
      drawPicker();
      drawXYChoice();
      drawPSDChoice();
      writeState();
    }

    var pickerTimer = null;
    filter.addEventListener("input", function () {
      clearTimeout(pickerTimer);
      pickerTimer = setTimeout(drawPicker, 60);
    });
    filter.addEventListener("keydown", function (e) {
      if (e.key === "Enter") {
        e.preventDefault();
        clearTimeout(pickerTimer);
        drawPicker();
        if (shown.length > 0) {
          toggle(shown[0].name, true);
        }
      }
    });

    // ---- plot controls --------------------------------------------------
    var plotType = document.getElementById("plot-type");
    var xSel = document.getElementById("xy-x");
    plotType.value = state.plot;

    function drawXYChoice() {
      var names = plotted();
      var options = names.slice();
      if (state.x && options.indexOf(state.x) < 0) {
        options.unshift(state.x);
      }
      if (!state.x && byName.Wind1VelX && options.indexOf("Wind1VelX") < 0) {
        options.unshift("Wind1VelX");
      }
      xSel.textContent = "";
      options.forEach(function (n) {
        var o = el("option", "", n + (byName[n].unit ? " (" + byName[n].unit + ")" : ""));
        o.value = n;
        xSel.appendChild(o);
      });
      if (!state.x || options.indexOf(state.x) < 0) {
        state.x = options.length ? options[0] : "";
      }
      xSel.value = state.x;
      document.getElementById("xy-x-label").hidden = state.plot !== "xy";
    }

    plotType.addEventListener("change", function () {
      state.plot = plotType.value;
      drawXYChoice();
      writeState();
      plot();
    });
    xSel.addEventListener("change", function () {
      state.x = xSel.value;
      writeState();
      plot();
    });

    // ---- time-series and XY chart ---------------------------------------
    var chartEl = document.getElementById("ts-chart");
    var chart = echarts.init(chartEl);
    var layout = []; // per series: {run, channel}
    var coarse = []; // per series: full-range envelope points
    var generation = 0;
    var zoomTimer = null;
    var restoring = false;

    function factor(t0, t1) {
      var rows = cfg.dt > 0 ? (t1 - t0) / cfg.dt + 1 : cfg.rows;
      return Math.max(1, Math.ceil(rows / POINTS));
    }

    function seriesName(run, channel, panelChannels) {
      if (runs.length === 1) {
        return channel;
      }
      return panelChannels.length === 1 ? run.name : run.name + " · " + channel;
    }

    function panels(names) {
      if (state.plot !== "unit") {
        return names.map(function (n) { return { label: n + (byName[n].unit ? " (" + byName[n].unit + ")" : ""), channels: [n] }; });
      }
      var out = [];
      names.forEach(function (n) {
        var u = byName[n].unit;
        var p = out.filter(function (q) { return q.unit === u; })[0];
        if (!p) {
          p = { unit: u, label: u || "-", channels: [] };
          out.push(p);
        }
        p.channels.push(n);
      });
      return out;
    }

    function plot() {
      clearError();
      var gen = ++generation;
      chartEl.dataset.plotted = "0";
      chartEl.dataset.fine = "0";
      if (state.plot === "xy") {
        plotXY(gen);
        statistics();
        return;
      }
      var names = plotted();
      if (names.length === 0) {
        chart.clear();
        chartEl.dataset.plotted = "1";
        statistics();
        return;
      }
      var k = factor(cfg.t_start, cfg.t_end);
      Promise.all(runs.map(function (r) {
        var own = forRun(r, names);
        if (own.length === 0) {
          return Promise.resolve({ series: [] });
        }
        return post("/analysis/jobs/" + encodeURIComponent(r.id) + "/time-series",
          { channels: own, method: "envelope", downsample_factor: k });
      })).then(function (answers) {
        if (gen !== generation) {
          return;
        }
        var ps = panels(names);
        var n = ps.length;
        var top = runs.length > 1 || names.length > 1 ? 40 : 20;
        chartEl.style.height = (top + n * PANEL + 70) + "px";
        chart.resize();
        var grids = [], xAxes = [], yAxes = [], series = [], legend = [];
        layout = [];
        coarse = [];
        ps.forEach(function (p, i) {
          grids.push({ left: 90, right: 30, top: top + i * PANEL, height: PANEL - 40 });
          xAxes.push({ type: "value", gridIndex: i, min: cfg.t_start, max: cfg.t_end,
            name: i === n - 1 ? "Time (s)" : "", nameLocation: "middle", nameGap: 26,
            axisLabel: { show: i === n - 1 } });
          yAxes.push({ type: "value", gridIndex: i, scale: true, name: p.label, nameLocation: "end",
            nameTextStyle: { align: "left" } });
          p.channels.forEach(function (c, ci) {
            runs.forEach(function (r, ri) {
              var s = answers[ri].series.filter(function (x) { return x.name === c; })[0];
              if (!s) {
                return;
              }
              var name = seriesName(r, c, p.channels);
              if (legend.indexOf(name) < 0) {
                legend.push(name);
              }
              var pts = pairs(s);
              var line = { name: name, type: "line", showSymbol: false, xAxisIndex: i, yAxisIndex: i, data: pts,
                lineStyle: { width: 1 } };
              if (runs.length > 1) {
                line.color = RUN_COLORS[ri % RUN_COLORS.length];
                if (ci > 0) {
                  line.lineStyle.type = ["dashed", "dotted"][(ci - 1) % 2];
                }
              }
              series.push(line);
              layout.push({ run: r, channel: c });
              coarse.push(pts);
            });
          });
        });
        var axes = xAxes.map(function (_, i) { return i; });
        chart.setOption({
          animation: false,
          tooltip: { trigger: "axis" },
          axisPointer: { link: [{ xAxisIndex: "all" }] },
          legend: { data: legend, top: 0, type: "scroll" },
          toolbox: { right: 10, feature: { saveAsImage: { name: imageName(), pixelRatio: 2 } } },
          grid: grids,
          xAxis: xAxes,
          yAxis: yAxes,
          dataZoom: [{ type: "inside", xAxisIndex: axes, filterMode: "none" },
            { type: "slider", xAxisIndex: axes, filterMode: "none", bottom: 10 }],
          series: series
        }, true);
        chartEl.dataset.plotted = "1";
        chartEl.dataset.panels = String(n);
        if (state.t0 !== null) {
          restoring = true;
          chart.dispatchAction({ type: "dataZoom", startValue: state.t0, endValue: state.t1 });
          restoring = false;
          refine();
        } else {
          statistics();
          spectrum();
        }
      }).catch(showError);
    }

    function visibleWindow() {
      var opt = chart.getOption();
      if (!opt.dataZoom || !opt.dataZoom.length) {
        return [cfg.t_start, cfg.t_end];
      }
      var dz = opt.dataZoom[0];
      var t0 = dz.startValue, t1 = dz.endValue;
      if (typeof t0 !== "number" || typeof t1 !== "number") {
        var span = cfg.t_end - cfg.t_start;
        t0 = cfg.t_start + span * dz.start / 100;
        t1 = cfg.t_start + span * dz.end / 100;
      }
      return [t0, t1];
    }

    // window_ is the visible window (the time-series CSV and exports).
    function window_() {
      return state.t0 !== null ? [state.t0, state.t1] : [cfg.t_start, cfg.t_end];
    }

    // withAnalysisWindow sets the window of a statistics, spectrum or
    // fatigue request: the zoomed window when the chart is zoomed; else
    // none, so that the service leaves out the start-up transient and says
    // so in its analysis_window, or the whole run when "skip the start-up
    // transient" is unticked.
    function withAnalysisWindow(body) {
      if (state.t0 !== null) {
        body.t_start = state.t0;
        body.t_end = state.t1;
      } else if (!document.getElementById("skip-transient").checked) {
        body.t_start = cfg.t_start;
        body.t_end = cfg.t_end;
      }
      return body;
    }

    // windowText states an answer's analysis_window.
    function windowText(aw) {
      if (!aw || aw.t_start === null || aw.t_end === null) {
        return "";
      }
      return "t = " + aw.t_start.toFixed(2) + " … " + aw.t_end.toFixed(2) + " s (" + aw.reason + ")";
    }

    // refine replaces the visible window's points by finer series.
    function refine() {
      var w = visibleWindow(), t0 = w[0], t1 = w[1];
      var full = t0 <= cfg.t_start && t1 >= cfg.t_end;
      if (full) {
        state.t0 = state.t1 = null;
      } else {
        state.t0 = t0;
        state.t1 = t1;
      }
      writeState();
      var gen = generation;
      var names = plotted();
      Promise.all(runs.map(function (r) {
        var own = forRun(r, names);
        if (own.length === 0) {
          return Promise.resolve({ series: [] });
        }
        return post("/analysis/jobs/" + encodeURIComponent(r.id) + "/time-series",
          { channels: own, method: "envelope", downsample_factor: factor(t0, t1), t_start: t0, t_end: t1 });
      })).then(function (answers) {
        if (gen !== generation) {
          return;
        }
        var points = 0;
        chart.setOption({
          series: layout.map(function (l, i) {
            var ri = runs.indexOf(l.run);
            var s = answers[ri].series.filter(function (x) { return x.name === l.channel; })[0];
            if (!s) {
              return { data: coarse[i] };
            }
            var fine = pairs(s);
            points += fine.length;
            var before = coarse[i].filter(function (p) { return p[0] < t0; });
            var after = coarse[i].filter(function (p) { return p[0] > t1; });
            return { data: before.concat(fine, after) };
          })
        });
        chartEl.dataset.fineStart = String(t0);
        chartEl.dataset.fineEnd = String(t1);
        chartEl.dataset.finePoints = String(points);
        chartEl.dataset.fine = "1";
        statistics();
        spectrum();
      }).catch(showError);
    }

    chart.on("datazoom", function () {
      if (restoring || state.plot === "xy") {
        return;
      }
      clearTimeout(zoomTimer);
      zoomTimer = setTimeout(refine, 250);
    });

    // plotXY draws every plotted channel against the x channel, sample by
    // sample over the window, one scatter per run and channel.
    function plotXY(gen) {
      var x = state.x;
      var ys = plotted().filter(function (n) { return n !== x; });
      if (!x || ys.length === 0) {
        chart.clear();
        chartEl.dataset.plotted = "1";
        showError("XY: select at least one channel besides the x channel");
        return;
      }
      var w = window_();
      var k = Math.max(1, Math.ceil(((cfg.dt > 0 ? (w[1] - w[0]) / cfg.dt + 1 : cfg.rows) * (ys.length + 1)) / (4 * POINTS)));
      Promise.all(runs.map(function (r) {
        var own = forRun(r, [x].concat(ys));
        if (own[0] !== x || own.length < 2) {
          return Promise.resolve(null);
        }
        return post("/analysis/jobs/" + encodeURIComponent(r.id) + "/time-series",
          { channels: own, method: "decimate", downsample_factor: k, t_start: w[0], t_end: w[1] });
      })).then(function (answers) {
        if (gen !== generation) {
          return;
        }
        chartEl.style.height = "28rem";
        chart.resize();
        var series = [], legend = [], units = [];
        runs.forEach(function (r, ri) {
          var a = answers[ri];
          if (!a) {
            return;
          }
          var xs = a.series[0].values;
          a.series.slice(1).forEach(function (s, si) {
            var name = runs.length === 1 ? s.name : (ys.length === 1 ? r.name : r.name + " · " + s.name);
            legend.push(name);
            if (units.indexOf(s.unit) < 0) {
              units.push(s.unit);
            }
            var pts = s.values.map(function (v, i) { return [xs[i], v]; });
            var sc = { name: name, type: "scatter", symbolSize: 3, large: true, data: pts };
            if (runs.length > 1) {
              sc.color = RUN_COLORS[ri % RUN_COLORS.length];
            }
            series.push(sc);
          });
        });
        var xc = byName[x];
        chart.setOption({
          animation: false,
          tooltip: { trigger: "item" },
          legend: { data: legend, top: 0, type: "scroll" },
          toolbox: { right: 10, feature: { saveAsImage: { name: imageName(), pixelRatio: 2 } } },
          grid: { left: 90, right: 30, top: 40, bottom: 50 },
          xAxis: { type: "value", scale: true, name: x + (xc.unit ? " (" + xc.unit + ")" : ""), nameLocation: "middle", nameGap: 28 },
          yAxis: { type: "value", scale: true, name: ys.length === 1 ? ys[0] + " (" + byName[ys[0]].unit + ")" : units.join(", ") },
          series: series
        }, true);
        chartEl.dataset.plotted = "1";
        chartEl.dataset.panels = "1";
      }).catch(showError);
    }

    // ---- statistics -----------------------------------------------------
    function statistics() {
      exportLinks();
      fatigue();
      var body = document.getElementById("stats-body");
      var names = state.channels.slice();
      if (names.length === 0) {
        body.textContent = "";
        return;
      }
      Promise.all(runs.map(function (r) {
        var own = forRun(r, names);
        if (own.length === 0) {
          return Promise.resolve(null);
        }
        return post("/analysis/jobs/" + encodeURIComponent(r.id) + "/statistics",
          withAnalysisWindow({ channels: own, include_extreme_times: true }));
      })).then(function (all) {
        body.textContent = "";
        var shown = null;
        // Rows by channel, then run, so the runs of one channel sit together.
        names.forEach(function (n) {
          runs.forEach(function (r, ri) {
            var st = all[ri];
            if (!st) {
              return;
            }
            shown = shown || st;
            var c = st.channels.filter(function (x) { return x.name === n; })[0];
            if (!c) {
              return;
            }
            var tr = el("tr", "border-b border-slate-100");
            tr.dataset.run = r.name;
            tr.dataset.channel = c.name;
            var cells = [r.name, c.name, c.unit];
            if (c.invalid) {
              tr.dataset.invalid = "1";
              cells.forEach(function (v) { tr.appendChild(el("td", "", v)); });
              var td = el("td", "text-red-700", "INVALID: OpenFAST wrote zeros in place of this channel (not plotted)");
              td.colSpan = 6;
              tr.appendChild(td);
            } else {
              cells.concat([fmt(c.min), fmt(c.mean), fmt(c.max), fmt(c.std), fmt(c.time_of_min), fmt(c.time_of_max)]).forEach(function (v) {
                tr.appendChild(el("td", "", v));
              });
            }
            body.appendChild(tr);
          });
        });
        if (shown) {
          document.getElementById("stats-window").textContent = windowText(shown.analysis_window);
        }
      }).catch(showError);
    }

    // ---- spectrum -------------------------------------------------------
    var psd = echarts.init(document.getElementById("psd-chart"));
    var psdSel = document.getElementById("psd-channel");

    function drawPSDChoice() {
      var names = plotted();
      psdSel.textContent = "";
      names.forEach(function (n) {
        var o = el("option", "", n + (byName[n].unit ? " (" + byName[n].unit + ")" : ""));
        o.value = n;
        psdSel.appendChild(o);
      });
      if (names.indexOf(state.psd) < 0) {
        state.psd = "";
      }
      psdSel.value = state.psd || names[names.length - 1] || "";
    }

    psdSel.addEventListener("change", function () {
      state.psd = psdSel.value;
      writeState();
      spectrum();
    });

    // spectrumBody is the spectrum request of the page's options: Welch
    // with the chosen resolution, window and overlap over the window of
    // the statistics, up to f_max (default the Nyquist frequency).
    function spectrumBody(name, withModes) {
      var body = withAnalysisWindow({ channel: name, method: "welch", window: document.getElementById("psd-window").value,
        overlap: Number(document.getElementById("psd-overlap").value) });
      var res = document.getElementById("psd-resolution").value;
      if (res) {
        body.resolution = Number(res);
      }
      var fmax = document.getElementById("psd-fmax").value;
      if (fmax !== "" && Number(fmax) > 0) {
        body.f_max = Number(fmax);
      }
      if (withModes) {
        body.natural_frequencies = true;
      }
      return body;
    }

    var MODE_LABELS = { tower_fore_aft: "tower FA", tower_side_side: "tower SS", blade_flap: "blade flap", blade_edge: "blade edge" };

    // markLabelRows stacks the labels of the frequency marks above the plot
    // in rows, so that no two labels of a row overlap (1P, 3P and the first
    // modes lie within a few tenths of a hertz of each other on a 20-Hz
    // axis): each label goes to the lowest row whose last label ends left
    // of it. It sets each mark's label distance and returns the row count.
    function markLabelRows(marks, xMin, xMax, logx, plotWidth) {
      var at = function (f) {
        return logx ? (Math.log(f) - Math.log(xMin)) / (Math.log(xMax) - Math.log(xMin)) * plotWidth
          : (f - xMin) / (xMax - xMin) * plotWidth;
      };
      var rowEnds = [];
      marks.slice().sort(function (a, b) { return a.xAxis - b.xAxis; }).forEach(function (m) {
        var x = at(m.xAxis);
        var half = 3.5 * m.name.length + 4;
        var r = 0;
        while (r < rowEnds.length && rowEnds[r] > x - half) {
          r++;
        }
        rowEnds[r] = x + half;
        m.label = { distance: 4 + 14 * r };
      });
      return rowEnds.length;
    }

    // axisNumber writes an axis value in exponent form when it is very
    // large or small (a log PSD axis spans many decades).
    function axisNumber(v) {
      var a = Math.abs(v);
      return a !== 0 && (a >= 1e5 || a < 1e-3) ? v.toExponential(0) : String(v);
    }

    function spectrum() {
      var pel = document.getElementById("psd-chart");
      var name = psdSel.value;
      pel.dataset.plotted = "0";
      if (!name) {
        psd.clear();
        return;
      }
      Promise.all(runs.map(function (r, ri) {
        if (forRun(r, [name]).length === 0) {
          return Promise.resolve(null);
        }
        return post("/analysis/jobs/" + encodeURIComponent(r.id) + "/spectrum", spectrumBody(name, ri === 0));
      })).then(function (all) {
        var first = all.filter(function (a) { return a; })[0];
        if (!first) {
          return;
        }
        var logx = document.getElementById("psd-logx").checked;
        var series = [];
        all.forEach(function (sp, ri) {
          if (!sp) {
            return;
          }
          var s = sp.spectra[0];
          var data = [];
          for (var i = 0; i < s.frequency.length; i++) {
            if (s.frequency[i] > 0 && s.values[i] > 0) {
              data.push([s.frequency[i], s.values[i]]);
            }
          }
          var line = { name: runs.length === 1 ? s.name : runs[ri].name, type: "line", showSymbol: false, data: data };
          if (runs.length > 1) {
            line.color = RUN_COLORS[ri % RUN_COLORS.length];
          }
          series.push(line);
        });
        // Marks: the rotor harmonics of the first run and its structure's
        // natural frequencies.
        var marks = first.harmonics.map(function (h) { return { name: h.label, xAxis: h.frequency }; });
        var modes = [];
        if (first.natural_frequencies) {
          Object.keys(MODE_LABELS).forEach(function (k) {
            var f = first.natural_frequencies[k];
            if (f > 0) {
              marks.push({ name: MODE_LABELS[k], xAxis: f, lineStyle: { color: "#b45309", type: "dotted" } });
              modes.push(MODE_LABELS[k]);
            }
          });
        }
        var s0 = first.spectra[0];
        var unit = s0.unit;
        var fLast = s0.frequency[s0.frequency.length - 1];
        var xMax = Number(fLast.toPrecision(3));
        // A log axis starts at the decade below the lowest frequency.
        var xMin = logx ? Math.pow(10, Math.floor(Math.log10(series[0].data.length ? series[0].data[0][0] : s0.resolution))) : 0;
        marks = marks.filter(function (m) { return m.xAxis > xMin && m.xAxis <= xMax; });
        var rows = markLabelRows(marks, xMin, xMax, logx, psd.getWidth() - 110);
        series[0].markLine = { symbol: "none", silent: true, label: { formatter: "{b}", position: "end" }, data: marks };
        psd.setOption({
          animation: false,
          tooltip: { trigger: "axis" },
          legend: { show: runs.length > 1, top: 0 },
          toolbox: { right: 10, feature: { saveAsImage: { name: imageName() + "-psd", pixelRatio: 2 } } },
          grid: { left: 80, right: 30, top: Math.max(40, 24 + 14 * rows) },
          xAxis: { type: logx ? "log" : "value", name: "Frequency (Hz)", nameLocation: "middle", nameGap: 28,
            min: xMin, max: xMax },
          yAxis: { type: document.getElementById("psd-logy").checked ? "log" : "value",
            name: name + " (" + (unit ? unit + ")²/Hz" : "1/Hz)"), nameLocation: "middle", nameGap: 62,
            axisLabel: { formatter: axisNumber } },
          dataZoom: [{ type: "inside", xAxisIndex: 0, filterMode: "none" }],
          series: series
        }, true);
        document.getElementById("psd-info").textContent = "resolution " + fmt(s0.resolution) + " Hz, " + (s0.segments || 1) +
          " segments, Nyquist " + fmt(first.nyquist) + " Hz" + (first.natural_frequencies_note ? " · no natural frequencies: " + first.natural_frequencies_note : "");
        pel.dataset.harmonics = first.harmonics.map(function (h) { return h.label; }).join(",");
        pel.dataset.modes = modes.join(",");
        pel.dataset.resolution = String(s0.resolution);
        pel.dataset.plotted = "1";
      }).catch(showError);
    }

    ["psd-resolution", "psd-window", "psd-overlap", "psd-fmax", "psd-logx", "psd-logy"].forEach(function (id) {
      document.getElementById(id).addEventListener("change", spectrum);
    });

    // ---- fatigue --------------------------------------------------------
    var rainflow = echarts.init(document.getElementById("rainflow-chart"));

    function fatigueBody(names) {
      var ms = document.getElementById("fatigue-m").value.split(/[,\s]+/).filter(function (x) { return x; }).map(Number);
      var body = withAnalysisWindow({ channels: names, wohler_exponents: ms, range_bins: 50 });
      var neq = document.getElementById("fatigue-neq").value;
      if (neq !== "" && Number(neq) > 0) {
        body.equivalent_cycles = Number(neq);
      }
      return body;
    }

    // fatigue fills the DEL table (per run and plotted channel) and the
    // rainflow range histogram of the PSD channel, and points the Markov
    // and load-duration links at the first run's window.
    function fatigue() {
      var names = plotted().slice(0, 20);
      var fel = document.getElementById("rainflow-chart");
      fel.dataset.plotted = "0";
      var aw = withAnalysisWindow({});
      var q = "channels=" + encodeURIComponent(names.join(",")) + (aw.t_start !== undefined ? "&t_start=" + aw.t_start + "&t_end=" + aw.t_end : "") + "&format=csv";
      var base = "/analysis/jobs/" + encodeURIComponent(runs[0].id);
      document.getElementById("fatigue-markov").href = base + "/markov?" + q;
      document.getElementById("fatigue-ldd").href = base + "/load-duration?" + q;
      if (names.length === 0) {
        return;
      }
      Promise.all(runs.map(function (r) {
        var own = forRun(r, names);
        if (own.length === 0) {
          return Promise.resolve(null);
        }
        return post("/analysis/jobs/" + encodeURIComponent(r.id) + "/fatigue", fatigueBody(own));
      })).then(function (all) {
        var first = all.filter(function (a) { return a; })[0];
        if (!first) {
          return;
        }
        var head = document.getElementById("fatigue-head");
        var body = document.getElementById("fatigue-body");
        head.textContent = "";
        body.textContent = "";
        var tr = el("tr", "border-b border-slate-300");
        var counted = first.channels.filter(function (c) { return c.dels && c.dels.length; })[0];
        ["Run", "Channel", "Unit", "Cycles", "Max range"].concat(counted ?
          counted.dels.map(function (d) { return "DEL m=" + d.exponent; }) : []).forEach(function (h) {
          tr.appendChild(el("th", "py-1 pr-3", h));
        });
        head.appendChild(tr);
        names.forEach(function (n) {
          all.forEach(function (f, ri) {
            if (!f) {
              return;
            }
            var c = f.channels.filter(function (x) { return x.channel === n; })[0];
            if (!c) {
              return;
            }
            var row = el("tr", "border-b border-slate-100");
            row.dataset.run = runs[ri].name;
            row.dataset.channel = n;
            [runs[ri].name, n, c.unit].forEach(function (v) { row.appendChild(el("td", "py-1 pr-3", v)); });
            if (c.invalid) {
              var td = el("td", "text-red-700", "INVALID: not counted");
              td.colSpan = 2 + (c.dels ? c.dels.length : 0);
              row.appendChild(td);
            } else {
              [fmt(c.cycles), fmt(c.max_range)].concat(c.dels.map(function (d) { return fmt(d.value); })).forEach(function (v) {
                row.appendChild(el("td", "py-1 pr-3", v));
              });
            }
            body.appendChild(row);
          });
        });
        document.getElementById("fatigue-table").dataset.neq = String(first.equivalent_cycles);
        // Rainflow histogram of the PSD channel, each run overlaid.
        var ch = psdSel.value || names[names.length - 1];
        var series = [];
        all.forEach(function (f, ri) {
          var c = f && f.channels.filter(function (x) { return x.channel === ch; })[0];
          if (!c || c.invalid || !c.rainflow.counts.length) {
            return;
          }
          var e = c.rainflow.range_edges;
          var s = { name: runs.length === 1 ? ch : runs[ri].name, type: "bar", barGap: "-100%",
            data: c.rainflow.counts.map(function (v, i) { return [(e[i] + e[i + 1]) / 2, v]; }) };
          if (runs.length > 1) {
            s.color = RUN_COLORS[ri % RUN_COLORS.length];
          }
          series.push(s);
        });
        rainflow.setOption({
          animation: false,
          tooltip: { trigger: "axis" },
          legend: { show: runs.length > 1, top: 0 },
          grid: { left: 70, right: 30 },
          xAxis: { type: "value", name: "Range (" + (byName[ch] ? byName[ch].unit : "") + ")", nameLocation: "middle", nameGap: 28, min: 0 },
          yAxis: { type: "log", name: "Cycles", min: 0.5 },
          series: series
        }, true);
        fel.dataset.plotted = "1";
      }).catch(showError);
    }

    document.getElementById("fatigue-apply").addEventListener("click", fatigue);
    document.getElementById("fatigue-csv").addEventListener("click", function () {
      runs.forEach(function (r) {
        saveCSV(r, "/fatigue", fatigueBody(forRun(r, plotted().slice(0, 20))), "fatigue");
      });
    });

    // ---- exports --------------------------------------------------------
    function imageName() {
      return fileSafe((runs.length === 1 ? runs[0].name : runs.length + "-runs") + "-" + plotted().slice(0, 4).join("-"));
    }

    document.getElementById("export-png").addEventListener("click", function () {
      download(chart.getDataURL({ type: "png", pixelRatio: 2, backgroundColor: "#fff", excludeComponents: ["toolbox", "dataZoom"] }),
        imageName() + ".png");
    });
    // SVG: the same option drawn once by ECharts' SVG renderer off screen.
    document.getElementById("export-svg").addEventListener("click", function () {
      var box = document.createElement("div");
      box.style.cssText = "position:absolute;left:-10000px;top:0;width:" + chartEl.clientWidth + "px;height:" + chartEl.clientHeight + "px";
      document.body.appendChild(box);
      var svg = echarts.init(box, null, { renderer: "svg" });
      var opt = chart.getOption();
      delete opt.toolbox;
      opt.dataZoom = (opt.dataZoom || []).filter(function (d) { return d.type === "inside"; });
      svg.setOption(opt);
      var text = svg.renderToSVGString();
      svg.dispose();
      box.remove();
      var href = URL.createObjectURL(new Blob([text], { type: "image/svg+xml" }));
      download(href, imageName() + ".svg");
    });

    // saveCSV posts a result request asking for CSV and saves the answer.
    function saveCSV(run, path, body, filename) {
      post("/analysis/jobs/" + encodeURIComponent(run.id) + path, body, "text/csv")
        .then(function (text) {
          download(URL.createObjectURL(new Blob([text], { type: "text/csv" })), filename + "-" + run.id + ".csv");
        })
        .catch(showError);
    }

    function seriesBody(names, w) {
      var rows = cfg.dt > 0 ? (w[1] - w[0]) / cfg.dt + 1 : cfg.rows;
      return { channels: names, method: "decimate", t_start: w[0], t_end: w[1],
        downsample_factor: Math.max(1, Math.ceil(rows * names.length / MAX_SERIES_POINTS)) };
    }

    // The visible window's samples, decimated only as far as the point
    // limit of the time-series endpoint needs: one run as the endpoint's
    // own CSV; several runs as one table with the run in its first column.
    document.getElementById("series-csv").addEventListener("click", function () {
      var w = window_();
      var names = plotted();
      if (names.length === 0) {
        return;
      }
      if (runs.length === 1) {
        saveCSV(runs[0], "/time-series", seriesBody(names, w), "time-series");
        return;
      }
      Promise.all(runs.map(function (r) {
        return post("/analysis/jobs/" + encodeURIComponent(r.id) + "/time-series", seriesBody(forRun(r, names), w));
      })).then(function (all) {
        var head = ["Run", "Time (s)"].concat(names.map(function (n) { return n + " (" + byName[n].unit + ")"; }));
        var lines = [head.map(csvCell).join(",")];
        all.forEach(function (ts, ri) {
          var col = {};
          ts.series.forEach(function (s) { col[s.name] = s.values; });
          ts.time.forEach(function (t, i) {
            lines.push([runs[ri].name, t].concat(names.map(function (n) { return col[n] ? col[n][i] : ""; })).map(csvCell).join(","));
          });
        });
        download(URL.createObjectURL(new Blob([lines.join("\n") + "\n"], { type: "text/csv" })), "time-series-" + runs.length + "-runs.csv");
      }).catch(showError);
    });
    // Export links of the first run: plotted channels, visible window, as
    // .out, .csv or .mat (GET /analysis/jobs/{id}/export).
    function exportLinks() {
      var w = window_();
      var names = plotted();
      ["out", "csv", "mat"].forEach(function (f) {
        var q = new URLSearchParams({ format: f, channels: names.join(","), t_start: String(w[0]), t_end: String(w[1]) });
        document.getElementById("export-" + f).href = "/analysis/jobs/" + encodeURIComponent(runs[0].id) + "/export?" + q.toString();
      });
    }

    document.getElementById("skip-transient").addEventListener("change", function () {
      statistics();
      spectrum();
    });

    document.getElementById("stats-csv").addEventListener("click", function () {
      runs.forEach(function (r) {
        saveCSV(r, "/statistics", withAnalysisWindow({ channels: forRun(r, state.channels), include_extreme_times: true }), "statistics");
      });
    });
    document.getElementById("psd-csv").addEventListener("click", function () {
      runs.forEach(function (r) {
        if (psdSel.value && forRun(r, [psdSel.value]).length) {
          saveCSV(r, "/spectrum", spectrumBody(psdSel.value, false), "spectrum");
        }
      });
    });

    new ResizeObserver(function () { chart.resize(); psd.resize(); rainflow.resize(); }).observe(chartEl);
    drawRuns();
    drawControls();
    plot();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var rc = document.getElementById("analysis-config");
    if (!rc) {
      return;
    }
    var cfg = JSON.parse(rc.textContent);
    if (cfg.runs && cfg.runs.length > 0) {
      workbench(cfg);
    }
  });
})();
