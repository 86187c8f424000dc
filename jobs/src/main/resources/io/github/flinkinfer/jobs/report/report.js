// Draws the run report's charts with uPlot (inlined above) from the JSON in #report-data, then
// checks that every chart has data pixels and marks the page for the headless-browser test.
(function () {
  'use strict';
  var D = JSON.parse(document.getElementById('report-data').textContent);
  var C = {startup: '#bdbdbd', load: '#f0a030', batch: '#2a6fdb', line: '#2a6fdb',
    bar: '#3b8f5a', pct: '#c0392b', busy: '#2a6fdb', idle: '#d9534f'};
  var FULL = 1150;
  var HALF = 560;
  var charts = [];
  // tick steps of count axes: whole numbers only
  var COUNTS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1e3, 2e3, 2.5e3, 5e3, 1e4, 2e4, 2.5e4,
    5e4, 1e5, 2e5, 2.5e5, 5e5, 1e6, 2e6, 2.5e6, 5e6, 1e7, 2e7, 5e7, 1e8, 1e9];

  /** Numbers for people: grouping, 3 significant digits, scientific when tiny. */
  function fmt(v) {
    if (v == null || !isFinite(v)) {
      return '';
    }
    var a = Math.abs(v);
    if (a === 0) {
      return '0';
    }
    if (a >= 1000) {
      return Math.round(v).toLocaleString('en-US');
    }
    if (a >= 0.001) {
      return String(+v.toPrecision(3));
    }
    return v.toExponential(1).replace('.0e', 'e');
  }

  function fmtAll(u, splits) {
    return splits.map(fmt);
  }

  /** Wide enough for the longest tick label, so none is clipped. */
  function axisSize(u, values, axisIdx, cycleNum) {
    var axis = u.axes[axisIdx];
    if (cycleNum > 1) {
      return axis._size;
    }
    var size = axis.ticks.size + axis.gap;
    var longest = (values || []).reduce(function (a, v) {
      return v != null && String(v).length > a.length ? String(v) : a;
    }, '');
    if (longest !== '') {
      u.ctx.font = axis.font[0];
      size += u.ctx.measureText(longest).width / devicePixelRatio;
    }
    return Math.ceil(size) + 4;
  }

  function xAxis(label, extra) {
    return Object.assign({label: label, values: fmtAll, size: 40}, extra || {});
  }

  function yAxis(label, extra) {
    return Object.assign({label: label, values: fmtAll, size: axisSize}, extra || {});
  }

  function make(id, opts, data) {
    var el = document.getElementById(id);
    if (!el) {
      return;
    }
    opts.legend = {show: false};
    var u = new uPlot(opts, data, el);
    charts.push({id: id, u: u});
  }

  /** One lane per subtask: start-up, model load(s) and batches as bars over the run's time axis. */
  function timeline() {
    var T = D.timeline;
    var lanes = T.subtasks;
    var n = lanes.length;
    if (n === 0) {
      return;
    }
    var end = T.endSeconds > 0 ? T.endSeconds : 1;
    function laneY(i) {
      return n - 1 - i; // subtask 0 on top
    }
    function draw(u) {
      var ctx = u.ctx;
      var b = u.bbox;
      var h = Math.min(22 * devicePixelRatio, b.height / n * 0.7);
      ctx.save();
      ctx.beginPath();
      ctx.rect(b.left, b.top, b.width, b.height);
      ctx.clip();
      lanes.forEach(function (lane, i) {
        var yc = u.valToPos(laneY(i), 'y', true);
        function seg(from, to, color) {
          var x0 = u.valToPos(from, 'x', true);
          var x1 = u.valToPos(to, 'x', true);
          ctx.fillStyle = color;
          ctx.fillRect(x0, yc - h / 2, Math.max(1, x1 - x0), h);
        }
        var opened = lane.openedAt.length ? Math.min.apply(null, lane.openedAt) : 0;
        seg(0, opened, C.startup);
        lane.modelLoads.forEach(function (l) { seg(l[0], l[1], C.load); });
        lane.batches.forEach(function (s) { seg(s[0], s[1], C.batch); });
      });
      ctx.restore();
    }
    make('chart-timeline', {
      width: FULL, height: 90 + 30 * n,
      scales: {x: {time: false, range: [0, end]}, y: {range: [-0.6, n - 0.4]}},
      axes: [
        xAxis(T.fromSubmission ? 'seconds since submission' : 'seconds since the first subtask opened'),
        yAxis('', {
          splits: function () { return lanes.map(function (l, i) { return laneY(i); }); },
          values: function (u, splits) {
            return splits.map(function (s) { return 'subtask ' + lanes[n - 1 - s].subtask; });
          },
          grid: {show: false}
        })
      ],
      series: [{}, {label: 'lanes', show: true, stroke: 'rgba(0,0,0,0)', points: {show: false}}],
      cursor: {sync: {key: 'run'}, y: false, points: {show: false}},
      hooks: {draw: [draw]}
    }, [[0, end], [null, null]]);
  }

  /** Items/s over the same axis as the time line. */
  function throughput() {
    var T = D.timeline;
    if (!T.throughput.length) {
      return;
    }
    var xs = [0].concat(T.throughput.map(function (p) { return p[0]; }));
    var ys = [T.throughput[0][1]].concat(T.throughput.map(function (p) { return p[1]; }));
    make('chart-throughput', {
      width: FULL, height: 220,
      scales: {x: {time: false, range: [0, T.endSeconds > 0 ? T.endSeconds : 1]}, y: {range: function (u, lo, hi) { return [0, hi > 0 ? hi * 1.1 : 1]; }}},
      axes: [xAxis(D.timeline.fromSubmission ? 'seconds since submission' : 'seconds since the first subtask opened'),
        yAxis('items/s')],
      series: [{label: 's', value: function (u, v) { return fmt(v) + ' s'; }},
        {label: 'items/s', stroke: C.line, fill: 'rgba(42,111,219,0.15)', width: 2,
          paths: uPlot.paths.stepped({align: -1}), points: {show: false},
          value: function (u, v) { return fmt(v); }}],
      cursor: {sync: {key: 'run'}}
    }, [xs, ys]);
  }

  /** Batch latency histogram with the percentiles marked. */
  function latency() {
    var H = D.latency.histogram;
    if (!H.length) {
      return;
    }
    var w = H[0][0];
    var xs = H.map(function (p) { return p[0] - w / 2; });
    var ys = H.map(function (p) { return p[1]; });
    var marks = ['p50', 'p90', 'p95', 'p99'];
    function draw(u) {
      var ctx = u.ctx;
      var dpr = devicePixelRatio;
      ctx.save();
      ctx.strokeStyle = C.pct;
      ctx.fillStyle = C.pct;
      ctx.lineWidth = dpr;
      ctx.setLineDash([4 * dpr, 3 * dpr]);
      ctx.font = (11 * dpr) + 'px system-ui, sans-serif';
      marks.forEach(function (m, i) {
        var v = D.latency.percentiles[m];
        var x = u.valToPos(v, 'x', true);
        var right = x > u.bbox.left + u.bbox.width * 0.6; // label on the side with room
        ctx.beginPath();
        ctx.moveTo(x, u.bbox.top);
        ctx.lineTo(x, u.bbox.top + u.bbox.height);
        ctx.stroke();
        ctx.textAlign = right ? 'right' : 'left';
        var label = m + ' ' + fmt(v) + ' ms';
        var tx = x + (right ? -3 : 3) * dpr;
        var ty = u.bbox.top + (12 + 13 * i) * dpr;
        var tw = ctx.measureText(label).width;
        ctx.fillStyle = 'rgba(255,255,255,0.85)'; // readable over the bars
        ctx.fillRect(right ? tx - tw - dpr : tx - dpr, ty - 10 * dpr, tw + 2 * dpr, 13 * dpr);
        ctx.fillStyle = C.pct;
        ctx.fillText(label, tx, ty);
      });
      ctx.restore();
    }
    make('chart-latency', {
      width: HALF, height: 260,
      scales: {x: {time: false, range: [0, H[H.length - 1][0] * 1.04]}, y: {range: function (u, lo, hi) { return [0, hi > 0 ? hi * 1.15 : 1]; }}},
      axes: [xAxis('batch latency (ms)'), yAxis('batches', {incrs: COUNTS})],
      series: [{label: 'ms', value: function (u, v) { return v == null ? '' : '≤ ' + fmt(v + w / 2) + ' ms'; }},
        {label: 'batches', fill: C.bar, stroke: C.bar, paths: uPlot.paths.bars({size: [0.92, Infinity]}),
          points: {show: false}}],
      hooks: {draw: [draw]}
    }, [xs, ys]);
  }

  /** Bars over named categories; {@code series} is [{label, color, values}]. */
  function categories(id, names, series, xLabel, yLabel, unit, yExtra) {
    var xs = names.map(function (n, i) { return i; });
    make(id, {
      width: HALF, height: 260,
      scales: {x: {time: false, range: [-0.6, names.length - 0.4]}, y: {range: function (u, lo, hi) { return [0, hi > 0 ? hi * 1.1 : 1]; }}},
      axes: [xAxis(xLabel, {
        splits: function () { return xs; },
        values: function (u, splits) { return splits.map(function (s) { return names[s]; }); },
        grid: {show: false}
      }), yAxis(yLabel, yExtra)],
      series: [{label: '', value: function (u, v) { return v == null ? '' : names[v]; }}].concat(series.map(function (s) {
        return {label: s.label, fill: s.color, stroke: s.color, points: {show: false},
          paths: uPlot.paths.bars({size: [0.7, 90]}),
          value: function (u, v) { return v == null ? '' : fmt(v) + (unit ? ' ' + unit : ''); }};
      }))
    }, [xs].concat(series.map(function (s) { return s.values; })));
  }

  function cost() {
    var c = D.cost;
    categories('chart-cost', ['busy', 'model load', 'idle'], [
      {label: 'busy', color: C.busy, values: [c.busy, null, null]},
      {label: 'model load', color: C.load, values: [null, c.load, null]},
      {label: 'idle', color: C.idle, values: [null, null, c.idle]}
    ], 'where the money went', c.currency, c.currency);
  }

  function tokens() {
    var h = D.tokenLengths;
    if (!h.length) {
      return;
    }
    categories('chart-tokens', h.map(function (p) { return '≤ ' + p[0]; }),
      [{label: 'items', color: C.bar, values: h.map(function (p) { return p[1]; })}],
      'tokens per item (its batch\'s mean)', 'items', 'items', {incrs: COUNTS});
  }

  /** Pixels of a chart's plot area that are clearly coloured (data, not grid or text). */
  function dataPixels(u) {
    var b = u.bbox;
    var img = u.ctx.getImageData(b.left, b.top, Math.max(1, b.width), Math.max(1, b.height)).data;
    var n = 0;
    for (var i = 0; i < img.length; i += 4) {
      var hi = Math.max(img[i], img[i + 1], img[i + 2]);
      var lo = Math.min(img[i], img[i + 1], img[i + 2]);
      if (img[i + 3] > 0 && hi - lo > 60) {
        n++;
      }
    }
    return n;
  }

  function check() {
    var drawn = 0;
    charts.forEach(function (c) {
      var px = dataPixels(c.u);
      document.getElementById(c.id).dataset.dataPixels = px;
      if (px >= 20) {
        drawn++;
      }
    });
    var expected = document.querySelectorAll('.chart').length;
    var body = document.body.dataset;
    body.charts = charts.length;
    body.drawn = drawn;
    body.errors = window.reportErrors || 0;
    body.rendered = charts.length === expected && drawn === expected && !window.reportErrors ? 'ok' : 'missing';
  }

  [timeline, throughput, latency, cost, tokens].forEach(function (f) {
    try {
      f();
    } catch (e) {
      console.error('chart failed: ' + e);
    }
  });
  setTimeout(check, 0);
})();
