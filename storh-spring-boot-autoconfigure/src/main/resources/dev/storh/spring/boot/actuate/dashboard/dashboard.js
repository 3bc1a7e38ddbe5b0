// storh dashboard: reads the storh Actuator endpoint and draws every store. No libraries, nothing fetched but the endpoint.
(function () {
  'use strict';

  var SVG = 'http://www.w3.org/2000/svg';
  var body = document.body;
  var endpoint = body.getAttribute('data-endpoint');
  var writable = body.getAttribute('data-writable') === 'true';
  var refreshMs = Math.max(500, Number(body.getAttribute('data-refresh-ms')) || 2000);
  var numbers = new Intl.NumberFormat('en-US');
  var decimals = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 });
  var actionResults = {};
  var busy = {};
  var timer = null;
  var loading = false;
  var again = false;

  function el(tag, attrs) {
    var node = document.createElement(tag);
    setAttrs(node, attrs);
    for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  }

  function svg(tag, attrs) {
    var node = document.createElementNS(SVG, tag);
    setAttrs(node, attrs);
    for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  }

  function setAttrs(node, attrs) {
    if (!attrs) return;
    Object.keys(attrs).forEach(function (key) {
      if (attrs[key] !== null && attrs[key] !== undefined) node.setAttribute(key, String(attrs[key]));
    });
  }

  function append(node, child) {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) { child.forEach(function (c) { append(node, c); }); return; }
    node.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }

  function count(n) { return numbers.format(n); }

  function bytes(n) {
    var units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    var i = 0;
    var v = n;
    while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
    return (i === 0 ? String(v) : decimals.format(v)) + ' ' + units[i];
  }

  function seconds(ms) { return decimals.format(ms / 1000) + ' s'; }

  function clock(iso) {
    var d = new Date(iso);
    return isNaN(d.getTime()) ? String(iso) : d.toLocaleString();
  }

  function facts(rows) {
    var dl = el('dl', { 'class': 'facts' });
    rows.forEach(function (row) {
      if (row) append(dl, [el('dt', null, row[0]), el('dd', row[2] || null, row[1])]);
    });
    return dl;
  }

  // 256 labelled bars, with the min, mean and max drawn as differently dashed lines named in text.
  function bucketChart(name, buckets) {
    var keys = Object.keys(buckets.sizes).sort();
    var width = 1024, height = 260, left = 64, right = 8, top = 12, bottom = 36;
    var plotW = width - left - right, plotH = height - top - bottom;
    var max = Math.max(1, buckets.max);
    var barW = plotW / Math.max(1, keys.length);
    function y(v) { return top + plotH - (v / max) * plotH; }
    var chart = svg('svg', {
      'class': 'chart', viewBox: '0 0 ' + width + ' ' + height, role: 'img',
      'aria-label': 'Record files in each of the ' + keys.length + ' buckets of ' + name + ': min ' + buckets.min
        + ', mean ' + decimals.format(buckets.mean) + ', max ' + buckets.max,
      'data-collection': name
    });
    append(chart, svg('title', null, 'Bucket sizes of ' + name));
    var bars = svg('g', { 'class': 'bars' });
    keys.forEach(function (key, i) {
      var v = buckets.sizes[key];
      var h = (v / max) * plotH;
      append(bars, svg('rect', {
        'class': 'bar', x: (left + i * barW).toFixed(2), y: (top + plotH - h).toFixed(2),
        width: Math.max(0.5, barW - 0.6).toFixed(2), height: h.toFixed(2),
        'data-bucket': key, 'data-count': v
      }, svg('title', null, 'bucket ' + key + ': ' + count(v) + ' records')));
    });
    append(chart, bars);
    append(chart, svg('line', { 'class': 'axis', x1: left, y1: top + plotH, x2: left + plotW, y2: top + plotH }));
    append(chart, svg('line', { 'class': 'axis', x1: left, y1: top, x2: left, y2: top + plotH }));
    append(chart, svg('text', { x: left - 6, y: top + plotH, 'text-anchor': 'end', 'dominant-baseline': 'middle' }, '0'));
    append(chart, svg('text', { x: left - 6, y: top, 'text-anchor': 'end', 'dominant-baseline': 'hanging' }, count(buckets.max)));
    keys.forEach(function (key, i) {
      if (i % 32 === 0 || i === keys.length - 1) {
        append(chart, svg('text', { x: left + i * barW + barW / 2, y: height - 12, 'text-anchor': 'middle' }, key));
      }
    });
    [['max', buckets.max], ['mean', buckets.mean], ['min', buckets.min]].forEach(function (mark, n) {
      var at = y(mark[1]);
      append(chart, svg('line', { 'class': 'mark ' + mark[0], x1: left, y1: at, x2: left + plotW, y2: at }));
      var label = mark[0] + ' ' + (mark[0] === 'mean' ? decimals.format(mark[1]) : count(mark[1]));
      append(chart, svg('text', {
        'class': 'mark-label', x: left + plotW - 4 - n * 150, y: at - top < 18 ? at + 16 : at - 4, 'text-anchor': 'end'
      }, label));
    });
    return chart;
  }

  function bucketTable(buckets) {
    var keys = Object.keys(buckets.sizes).sort();
    var head = el('tr', null, el('th', { scope: 'col' }, ''));
    for (var c = 0; c < 16; c++) append(head, el('th', { scope: 'col' }, '_' + c.toString(16)));
    var rows = [head];
    for (var r = 0; r < 16; r++) {
      var row = el('tr', null, el('th', { scope: 'row' }, r.toString(16) + '_'));
      for (var k = 0; k < 16; k++) {
        var key = keys[r * 16 + k];
        append(row, el('td', null, key === undefined ? '' : count(buckets.sizes[key])));
      }
      rows.push(row);
    }
    return el('details', { 'data-key': 'table' },
      el('summary', null, 'Bucket sizes as a table'),
      el('div', { 'class': 'table-wrap' }, el('table', { 'class': 'buckets' }, el('tbody', null, rows))));
  }

  // Horizontal bars for a queue's job counts: each bar carries its name and value in text.
  function countBars(name, rows) {
    var width = 600, rowH = 34, labelW = 120, valueW = 110;
    var max = Math.max(1, Math.max.apply(null, rows.map(function (r) { return r[1]; })));
    var chart = svg('svg', {
      'class': 'chart counts', viewBox: '0 0 ' + width + ' ' + (rows.length * rowH + 4), role: 'img',
      'aria-label': rows.map(function (r) { return r[0] + ' ' + r[1]; }).join(', '), 'data-queue': name
    });
    rows.forEach(function (row, i) {
      var y = i * rowH + 4;
      var w = (row[1] / max) * (width - labelW - valueW);
      append(chart, svg('text', { x: 0, y: y + rowH / 2, 'dominant-baseline': 'middle' }, row[0]));
      append(chart, svg('rect', { 'class': 'track', x: labelW, y: y + 4, width: width - labelW - valueW, height: rowH - 12 }));
      append(chart, svg('rect', {
        'class': 'bar', x: labelW, y: y + 4, width: w.toFixed(2), height: rowH - 12, 'data-name': row[0], 'data-count': row[1]
      }, svg('title', null, row[0] + ': ' + count(row[1]))));
      append(chart, svg('text', { x: width - valueW + 8, y: y + rowH / 2, 'dominant-baseline': 'middle', 'class': 'value' },
        count(row[1])));
    });
    return chart;
  }

  function writers(w) {
    if (!w) return null;
    var items = [];
    (w.live || []).forEach(function (name) { items.push(el('li', { 'class': 'live' }, 'live: ' + name)); });
    (w.stale || []).forEach(function (path) {
      items.push(el('li', { 'class': 'stale' }, 'STALE (crashed writer): ' + path));
    });
    if (!items.length) return el('span', { 'class': 'empty' }, 'none');
    return el('ul', { 'class': 'plain writers' }, items);
  }

  function lastVerify(v) {
    if (!v) return el('span', { 'class': 'empty' }, 'not yet run');
    var state = el('span', { 'class': 'state ' + (v.ok ? 'good' : 'bad') }, v.ok ? 'OK' : 'FAILED');
    var text = [state, ' at ' + clock(v.at) + ' in ' + seconds(v.durationMs)];
    if (v.repaired) text.push(' (after a repair)');
    if (!v.ok && v.errors && v.errors.length) {
      text.push(el('ul', { 'class': 'plain errors' }, v.errors.map(function (e) { return el('li', null, e); })));
    }
    return el('span', { 'class': 'verify' }, text);
  }

  function progress(p, unit) {
    if (!p) return null;
    var known = p.percent !== null && p.percent !== undefined;
    var of = p.total >= 0 ? ' of ' + count(p.total) : '';
    return el('div', { 'class': 'progress', role: 'status' },
      el('label', null, 'Verify running: ' + (known ? decimals.format(p.percent) + ' %, ' : '') + count(p.done) + of + ' '
        + unit + ', ' + seconds(p.elapsedMs),
        known ? el('progress', { max: 100, value: p.percent }) : el('progress', null)));
  }

  function actions(type, name) {
    if (!writable) return null;
    var key = type + '/' + name;
    var result = el('span', { 'class': 'action-result', role: 'status' }, actionResults[key] || '');
    function button(operation, label) {
      var b = el('button', { type: 'button', 'data-operation': operation }, label);
      if (busy[key]) b.disabled = true;
      b.addEventListener('click', function () { run(type, name, operation, label); });
      return b;
    }
    return el('div', { 'class': 'actions' }, button('verify', 'Verify now'), button('repair', 'Repair'), result);
  }

  function run(type, name, operation, label) {
    var key = type + '/' + name;
    if (operation === 'repair' && !window.confirm('Repair ' + name + '? Corrupt files are moved aside and indexes rebuilt.')) return;
    busy[key] = true;
    actionResults[key] = label + ': running…';
    load();
    fetch(endpoint + '/' + type + '/' + encodeURIComponent(name), {
      method: 'POST', credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ operation: operation })
    }).then(function (response) {
      return response.text().then(function (text) {
        if (!response.ok) throw new Error('HTTP ' + response.status + (text ? ': ' + text.slice(0, 200) : ''));
        var report = JSON.parse(text).report || {};
        var ok = report.ok === undefined ? true : report.ok;
        actionResults[key] = label + ': ' + (ok ? 'done' : 'problems found') + ' at ' + new Date().toLocaleTimeString();
      });
    }).catch(function (e) {
      actionResults[key] = label + ' failed: ' + e.message;
    }).then(function () {
      busy[key] = false;
      load();
    });
  }

  function storeSection(kind, type, name, content) {
    return el('section', { 'class': 'store ' + kind, 'data-type': type, 'data-name': name, id: type + '-' + name },
      el('h2', null, el('span', { 'class': 'kind' }, kind), name), content);
  }

  function collection(name, c) {
    var indexes = (c.indexes || []).map(function (i) { return i.field + ' (' + i.kind + (i.unique ? ', unique' : '') + ')'; });
    return storeSection('collection', 'collections', name, [
      el('p', { 'class': 'path' }, c.path),
      facts([
        ['Records', count(c.records), { 'data-field': 'records' }],
        ['Buckets', count(c.buckets.count) + ' (min ' + count(c.buckets.min) + ', mean ' + decimals.format(c.buckets.mean)
          + ', max ' + count(c.buckets.max) + ')', { 'data-field': 'buckets' }],
        ['Bytes', c.lastVerify && typeof c.lastVerify.bytes === 'number'
          ? bytes(c.lastVerify.bytes) + ' (read by the last verify)'
          : el('span', { 'class': 'empty' }, 'known after the first verify'), { 'data-field': 'bytes' }],
        ['Indexes', indexes.length ? indexes.join(', ') : el('span', { 'class': 'empty' }, 'none'), { 'data-field': 'indexes' }],
        ['Writers', writers(c.writers), { 'data-field': 'writers' }],
        ['Last verify', lastVerify(c.lastVerify), { 'data-field': 'last-verify' }]
      ]),
      progress(c.verifyProgress, 'records'),
      el('h3', null, 'Records per bucket'),
      bucketChart(name, c.buckets),
      bucketTable(c.buckets),
      actions('collections', name)
    ]);
  }

  function log(name, l) {
    return storeSection('log', 'logs', name, [
      el('p', { 'class': 'path' }, l.path),
      facts([
        ['Segments', count(l.segments), { 'data-field': 'segments' }],
        ['Records', count(l.records), { 'data-field': 'records' }],
        ['Deleted', count(l.deleted), { 'data-field': 'deleted' }],
        ['Bytes', bytes(l.bytes) + ' (' + count(l.bytes) + ')', { 'data-field': 'bytes' }],
        ['Retention', l.retentionDays === null || l.retentionDays === undefined ? 'none' : l.retentionDays + ' days'],
        ['Writers', writers(l.writers), { 'data-field': 'writers' }],
        ['Last verify', lastVerify(l.lastVerify), { 'data-field': 'last-verify' }]
      ]),
      progress(l.verifyProgress, 'segments'),
      actions('logs', name)
    ]);
  }

  function queue(name, q) {
    var rows = [['pending', q.pending], ['processing', q.processing], ['done', q.done]];
    if (typeof q.dead === 'number') rows.push(['dead', q.dead]);
    return storeSection('queue', 'queues', name, [
      el('p', { 'class': 'path' }, q.path),
      countBars(name, rows),
      facts([
        ['Log size', bytes(q.bytes), { 'data-field': 'bytes' }],
        ['Claim timeout', seconds(q.processingTimeoutSeconds * 1000)],
        ['Last verify', lastVerify(q.lastVerify), { 'data-field': 'last-verify' }]
      ]),
      progress(q.verifyProgress, 'events'),
      actions('queues', name)
    ]);
  }

  function render(data) {
    var main = document.getElementById('stores');
    var open = {};
    main.querySelectorAll('details[open]').forEach(function (d) {
      open[d.closest('section').id + '/' + d.getAttribute('data-key')] = true;
    });
    var sections = [];
    Object.keys(data.collections || {}).forEach(function (n) { sections.push(collection(n, data.collections[n])); });
    Object.keys(data.logs || {}).forEach(function (n) { sections.push(log(n, data.logs[n])); });
    Object.keys(data.queues || {}).forEach(function (n) { sections.push(queue(n, data.queues[n])); });
    if (!sections.length) sections.push(el('p', { 'class': 'empty' }, 'No stores yet.'));
    sections.forEach(function (s) {
      if (!s.querySelectorAll) return;
      s.querySelectorAll('details').forEach(function (d) {
        if (open[s.id + '/' + d.getAttribute('data-key')]) d.open = true;
      });
    });
    main.replaceChildren.apply(main, sections);
    document.getElementById('root').textContent = data.root || '';
  }

  function load() {
    if (timer !== null) { clearTimeout(timer); timer = null; }
    if (loading) { again = true; return; }
    loading = true;
    var status = document.getElementById('status');
    fetch(endpoint, { headers: { Accept: 'application/json' }, credentials: 'same-origin', cache: 'no-store' })
      .then(function (response) {
        if (!response.ok) throw new Error('HTTP ' + response.status);
        return response.json();
      })
      .then(function (data) {
        render(data);
        status.textContent = '';
        var now = new Date();
        var updated = document.getElementById('updated');
        updated.textContent = 'Updated ' + now.toLocaleTimeString();
        updated.setAttribute('data-updated', now.toISOString());
      })
      .catch(function (e) {
        status.textContent = 'Could not read ' + endpoint + ': ' + e.message + ' (retrying)';
      })
      .then(function () {
        loading = false;
        if (again) { again = false; load(); } else { timer = setTimeout(load, refreshMs); }
      });
  }

  document.getElementById('refresh-note').textContent = '· refreshes every ' + seconds(refreshMs)
    + (writable ? ' · maintenance enabled' : ' · read-only');
  load();
}());
