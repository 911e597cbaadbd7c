// The table in a browser (`legacies serve`): draws one seat's view (view/model.py's
// SeatView, sent by the server over a WebSocket) and sends the seat's answers, each naming
// the decision it answers. Every text from the game goes into the page as text
// (textContent, text nodes, SVG text), never as markup. On (re)connecting, the page asks
// for the view as it is now, so a reloaded page continues where it was.
// A hot seat's page (`serve --hot-seat`) is sent a cover between two people: everything of
// the seat shown is taken out of the page, which shows only who plays next, until that
// person clicks that only they see the screen ("ready"); only then is their view sent.
"use strict";

(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const SHEET = window.matchMedia("(max-width: 700px)");  // the reader a sheet (table.css)
  const base = location.pathname.replace(/\/+$/, "");
  let socket = null;
  let view = null;
  let colours = [];
  let retry = 500;
  let reading = null; // the card id read in full, kept across views
  // how far the map is zoomed in: 1 shows it whole in its pane; more, part of it at a time
  // (the pane scrolls), kept across views and kept where it was scrolled to
  let mapZoom = 1;
  const MAP_ZOOMS = [1, 1.5, 2, 3, 4];
  // whether the keyboard gave the last answer (Enter, Space, Tab, the arrows; a pointer
  // clears it): then the next decision's first option takes the focus, as the buttons
  // answered are gone; after a click or a tap nothing moves (a phone would open the reader)
  let byKeys = false;

  // ------------------------------------------------------------------ building the DOM
  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function svg(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    for (const key of Object.keys(attrs || {})) node.setAttribute(key, String(attrs[key]));
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  function $(id) {
    return document.getElementById(id);
  }

  function colour(player) {
    if (player < 0 || !colours.length) return "#d5d9de";
    return colours[player % colours.length];
  }

  function swatch(player) {
    const dot = el("span", "swatch");
    dot.style.setProperty("--c", colour(player)); // a CSSOM property: allowed by style-src 'self'
    return dot;
  }

  // a line that begins with a player's name ("P2 x2") gets that player's colour
  function playerLine(text) {
    const line = el("span", "held");
    if (view) {
      for (const p of view.players) {
        if (text === p.name || text.startsWith(p.name + " ") || text.startsWith(p.name + ",")) {
          line.appendChild(swatch(p.index));
          break;
        }
      }
    }
    line.appendChild(document.createTextNode(text));
    return line;
  }

  // ------------------------------------------------------------------ talking
  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(scheme + "//" + location.host + base + "/ws");
    socket.addEventListener("open", function () {
      retry = 500;
      setConnection("connected", "");
      send({ type: "view" });
    });
    socket.addEventListener("message", function (event) {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (err) {
        return;
      }
      received(message);
    });
    socket.addEventListener("close", function (event) {
      disableOptions(); // an answer sent now would be lost
      if (event.code === 1008) {
        setConnection("closed", "the server closed the connection");
        return;
      }
      setConnection("reconnecting…", "lost");
      notice("The connection to the table was lost: reconnecting…", "error");
      stillValid(function (valid) {
        if (!valid) {
          setConnection("closed", "the link is no longer valid");
          notice("This link no longer opens a seat at this table: the game was resumed with new links, or " +
            "the table was closed. Ask the host for your link.", "error");
          return;
        }
        setTimeout(connect, retry);
        retry = Math.min(retry * 2, 8000);
      });
    });
  }

  // whether the server still knows this page's link: a server restarted with new links
  // (`serve --resume`) refuses the old ones, and a page must not retry them for ever
  function stillValid(then) {
    fetch(base + "/view", { cache: "no-store" }).then(function (response) {
      then(response.status !== 403 && response.status !== 404);
    }, function () {
      then(true); // the server is down: it may come back with this link
    });
  }

  function disableOptions() {
    for (const b of document.querySelectorAll("#options button, #options input")) b.disabled = true;
  }

  function setConnection(text, state) {
    const node = $("connection");
    node.textContent = text;
    node.dataset.state = state;
  }

  function notice(text, kind) {
    const node = $("notice");
    node.textContent = text;
    node.dataset.kind = kind;
    node.hidden = !text;
  }

  function received(message) {
    if (message.type === "view") {
      colours = message.colours || [];
      const before = view && view.decision, now = message.view.decision;
      const fresh = !before || !now || before.number !== now.number || before.takebacks !== now.takebacks ||
          before.player !== now.player;
      if (fresh) notice("", ""); // what was said of another decision (a refusal, an undo refused) no longer holds
      view = message.view;
      uncover();
      draw(message, fresh);
      if (fresh && byKeys && now && now.yours) focusFirstOption();
    } else if (message.type === "cover") {
      cover(message);
    } else if (message.type === "refused") {
      notice("Refused: " + message.text, "refused");
    } else if (message.type === "said") {
      notice(message.text, "said");
    } else if (message.type === "error") {
      notice("Error: " + message.text, "error");
    }
  }

  function answer(index) {
    if (!view || !view.decision || !view.decision.yours) return;
    disableOptions();
    notice("", "");
    send({ type: "answer", decision: view.decision.number, takebacks: view.decision.takebacks, option: index });
  }

  // ------------------------------------------------------------------ the hot seat's cover
  // everything drawn of a seat, taken out of the page
  const SEAT_PARTS = ["who", "purpose", "prompt", "options", "result", "reader-title", "reader-lines", "map",
    "board", "players", "you", "changes", "log", "notice"];

  function cover(message) {
    view = null;
    reading = null;
    for (const id of SEAT_PARTS) clear($(id));
    delete $("options").dataset.decision;
    $("reader").hidden = true;
    $("result").hidden = true;
    notice("", "");
    $("table").hidden = true;
    document.title = message.title;
    $("title").textContent = message.title;
    const ready = $("ready");
    if (message.next === null || message.next === undefined) {
      $("cover-text").textContent = message.waiting ? "Waiting for " + message.waiting + "…" : "Waiting…";
      ready.hidden = true;
      delete ready.dataset.seat;
    } else {
      $("cover-text").textContent = message.next + "'s turn: pass the device; click when only " +
        message.next + " can see the screen";
      ready.textContent = "Show " + message.next + "'s screen";
      ready.dataset.seat = String(message.seat);
      ready.hidden = false;
      ready.disabled = false;
    }
    $("cover").hidden = false;
  }

  function uncover() {
    $("cover").hidden = true;
    clear($("cover-text"));
    $("table").hidden = false;
  }

  // ------------------------------------------------------------------ drawing the view
  // What of the options has the focus, as a selector that finds it again once they are
  // drawn afresh (another seat's move redraws the same decision)
  function focusedOption() {
    const active = document.activeElement;
    if (!active || !$("options").contains(active)) return null;
    if (active.id === "amount") return "#amount";
    if (active.dataset.index === undefined) return null;
    return "#options button." + (active.classList.contains("read") ? "read" : "option") +
      "[data-index=\"" + active.dataset.index + "\"]";
  }

  function draw(message, fresh) {
    document.title = view.title + " — " + view.seat_name;
    $("title").textContent = view.title;
    clear($("who")).appendChild(swatch(view.seat));
    $("who").appendChild(document.createTextNode("You are " + view.seat_name));
    // the same decision drawn again keeps the focus and an amount being typed
    const focused = fresh ? null : focusedOption();
    const typed = !fresh && $("amount") ? $("amount").value : null;
    drawDecision(message);
    if (typed !== null && $("amount")) $("amount").value = typed;
    const again = focused && document.querySelector(focused);
    if (again) again.focus();
    drawResult();
    $("undo").disabled = !!view.result; // a finished game's result stands
    drawParts($("board"), view.table);
    drawMap();
    drawPlayers();
    drawLog();
    if (reading && view.cards[reading]) read(reading);
    else if (reading) closeReader();
  }

  function drawDecision(message) {
    const d = view.decision;
    const options = clear($("options"));
    const purpose = $("purpose");
    const prompt = $("prompt");
    if (message.stopped) {
      purpose.textContent = "The game stopped";
      prompt.textContent = message.stopped;
      return;
    }
    if (!d) {
      purpose.textContent = view.result ? "The game is over" : "Waiting…";
      prompt.textContent = "";
      return;
    }
    if (!d.yours) {
      purpose.textContent = message.waiting ? message.waiting + " is thinking…" : "Waiting for " + d.player_name;
      prompt.textContent = d.player_name + ": " + d.purpose;
      options.dataset.decision = "";
      return;
    }
    purpose.textContent = d.purpose;
    prompt.textContent = d.prompt !== d.purpose.toLowerCase() ? d.prompt : "";
    options.dataset.decision = String(d.number);
    if (d.amounts) drawAmounts(options, d);
    for (const o of d.options) {
      if (d.amounts && !o.passes) continue;
      const b = el("button", "option");
      b.type = "button";
      b.dataset.index = String(o.index);
      b.appendChild(el("span", "label", o.label));
      if (o.details) b.appendChild(el("span", "details", o.details));
      if (o.hint) b.appendChild(el("span", "hint", o.hint));
      const plays = (o.plays || []).filter(function (line) { return line !== o.hint; });
      if (plays.length) {
        const list = el("ul", "plays");
        for (const line of plays) list.appendChild(el("li", "", line));
        b.appendChild(list);
      }
      b.addEventListener("click", function () { answer(o.index); });
      if (o.card && view.cards[o.card]) {
        // where the reader is a sheet over the foot of the screen (a narrow window), only
        // Read opens it: opened by a pointer passing over, it covered the options below
        b.addEventListener("mouseenter", function () { if (!SHEET.matches) read(o.card); });
        b.addEventListener("focus", function () { if (!SHEET.matches) read(o.card); markFound(o.card); });
        // a button of its own beside the option: a touch screen has no hover, and a tap answers
        const row = el("div", "option-row");
        const more = el("button", "read", "Read");
        more.type = "button";
        more.dataset.index = String(o.index);
        more.setAttribute("aria-label", "Read " + view.cards[o.card].name + " in full");
        more.addEventListener("click", function () { read(o.card, true); });
        row.appendChild(b);
        row.appendChild(more);
        options.appendChild(row);
        continue;
      }
      options.appendChild(b);
    }
  }

  // the place on the map of the option that has the focus, marked (a click on the map, or
  // the arrows through the options, shows where it is)
  function markFound(card) {
    document.querySelectorAll("#map g.place").forEach(function (g) {
      g.classList.toggle("found", g.dataset.card === card);
      if (g.dataset.card === card) showInFrame(g);
    });
  }

  // a zoomed map scrolled, within its pane, to show `g` (the page itself stays where it is)
  function showInFrame(g) {
    const frame = document.querySelector("#map .map-frame");
    if (!frame || mapZoom === 1) return;
    const seen = frame.getBoundingClientRect(), at = g.getBoundingClientRect();
    if (at.left < seen.left || at.right > seen.right) frame.scrollLeft += (at.left + at.right - seen.left - seen.right) / 2;
    if (at.top < seen.top || at.bottom > seen.bottom) frame.scrollTop += (at.top + at.bottom - seen.top - seen.bottom) / 2;
  }

  function focusFirstOption() {
    const first = $("amount") || document.querySelector("#options button.option:not([disabled])");
    if (first) first.focus();
  }

  // the arrows move between the options (the Read buttons beside them are reached by Tab)
  function optionsKeys(event) {
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    const buttons = Array.prototype.slice.call(document.querySelectorAll("#options button.option:not([disabled])"));
    const at = buttons.indexOf(document.activeElement);
    if (at < 0) return;
    event.preventDefault();
    const next = buttons[Math.min(buttons.length - 1, Math.max(0, at + (event.key === "ArrowDown" ? 1 : -1)))];
    next.focus();
  }

  function drawAmounts(options, d) {
    const values = d.amounts.values;
    const form = el("form", "amount");
    const label = el("label", "", "Amount (" + d.amounts.words + ")");
    const input = el("input");
    input.type = "number";
    input.id = "amount";
    input.min = String(Math.min.apply(null, values));
    input.max = String(Math.max.apply(null, values));
    if (values.length > 1) input.step = String(Math.max(1, values[1] - values[0]));
    input.value = String(values[0]);
    label.appendChild(input);
    form.appendChild(label);
    const go = el("button", "option choose", "Choose");
    go.type = "submit";
    form.appendChild(go);
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      const wanted = Number(input.value);
      const found = d.options.find(function (o) { return o.amount === wanted && !o.passes; });
      if (!found) {
        notice("Choose one of " + d.amounts.words, "refused");
        return;
      }
      answer(found.index);
    });
    options.appendChild(form);
  }

  function drawResult() {
    const node = clear($("result"));
    const r = view.result;
    node.hidden = !r;
    if (!r) return;
    const names = view.players.slice().sort(function (a, b) { return a.index - b.index; });
    node.appendChild(el("h2", "", "Winner: " + names[r.winner].name));
    if (r.reason) node.appendChild(el("p", "", r.reason));
    const list = el("ol", "ranking");
    for (const p of r.ranking) {
      const li = el("li");
      li.appendChild(swatch(p));
      li.appendChild(document.createTextNode(names[p].name + ": " + r.scores[p]));
      list.appendChild(li);
    }
    node.appendChild(list);
  }

  function cardChip(listed) {
    const chip = el(listed.card ? "button" : "span", "card" + (listed.card ? "" : " face-down"));
    if (listed.card) {
      chip.type = "button";
      chip.dataset.card = listed.card;
      chip.addEventListener("click", function () { read(listed.card); });
    }
    chip.appendChild(el("span", "name", listed.name));
    if (listed.details) chip.appendChild(el("span", "details", listed.details));
    for (const h of listed.holds || []) chip.appendChild(playerLine(h));
    return chip;
  }

  function drawParts(into, parts) {
    clear(into);
    let counters = null;
    for (const part of parts) {
      if (part.kind === "counter") {
        if (!counters) counters = into.appendChild(el("div", "counters"));
        const c = el("span", "counter");
        c.appendChild(el("span", "value", part.text));
        c.appendChild(el("span", "label", part.label));
        counters.appendChild(c);
        continue;
      }
      counters = null;
      if (part.kind === "line") {
        into.appendChild(el("p", "line", part.text));
      } else if (part.kind === "field") {
        const f = el("p", "field");
        f.appendChild(el("span", "label", part.label + ": "));
        f.appendChild(document.createTextNode(part.text));
        into.appendChild(f);
      } else if (part.kind === "zone") {
        into.appendChild(drawZone(part));
      } else if (part.kind === "columns") {
        into.appendChild(drawColumns(part));
      } else if (part.kind === "rows") {
        const box = el("div", "rows");
        if (part.label) box.appendChild(el("h3", "", part.label));
        const list = el("ul");
        for (const r of part.rows) list.appendChild(el("li", "", r));
        // none at all is said, as the terminal table says it (a bare heading read as missing)
        box.appendChild(part.rows.length ? list : el("span", "empty", "none"));
        into.appendChild(box);
      }
    }
  }

  function drawZone(part) {
    const z = part.zone;
    const box = el("div", "zone");
    const head = el("h3", "", part.label + " (" + z.count + ")");
    box.appendChild(head);
    const cards = el("div", "cards");
    for (const p of z.pieces) cards.appendChild(cardChip(p));
    if (z.face_down && !z.pieces.length) cards.appendChild(el("span", "card face-down", z.face_down + " face down"));
    else if (z.face_down) cards.appendChild(el("span", "card face-down", "+" + z.face_down + " face down"));
    if (!z.count) cards.appendChild(el("span", "empty", "empty"));
    box.appendChild(cards);
    return box;
  }

  function drawColumns(part) {
    const box = el("div", "columns-part");
    if (part.label) box.appendChild(el("h3", "", part.label));
    const row = el("div", "columns");
    for (const column of part.columns) {
      const c = el("div", "column");
      const lines = column.lines.filter(function (l) { return l && !/^-+$/.test(l); });
      lines.forEach(function (line, i) { c.appendChild(i === 0 ? el("h4", "", line) : playerLine(line)); });
      for (const p of column.pieces) c.appendChild(cardChip(p));
      row.appendChild(c);
    }
    box.appendChild(row);
    return box;
  }

  function drawPlayers() {
    const into = clear($("players"));
    const you = clear($("you"));
    for (const p of view.players) {
      const box = el("section", "player" + (p.you ? " you" : "") + (p.deciding ? " deciding" : ""));
      box.style.setProperty("--c", colour(p.index));
      const head = el("h3");
      head.appendChild(swatch(p.index));
      head.appendChild(document.createTextNode(p.name + (p.you ? " (you)" : "")));
      head.appendChild(el("span", "score", "score " + p.score));
      if (p.to_play) head.appendChild(el("span", "tag", "to play"));
      if (p.deciding) head.appendChild(el("span", "tag", "deciding"));
      box.appendChild(head);
      const body = el("div");
      drawParts(body, p.counters.concat(p.parts));
      box.appendChild(body);
      (p.you ? you : into).appendChild(box);
    }
  }

  function drawLog() {
    const changes = clear($("changes"));
    for (const e of view.changes) changes.appendChild(el("li", "entry " + e.kind, e.text));
    if (!view.changes.length) changes.appendChild(el("li", "entry", "nothing yet"));
    const log = clear($("log"));
    const from = view.log_from || 1;
    log.start = from;
    const left = $("log-left");
    left.hidden = from <= 1;
    left.textContent = from > 1 ? "Entries 1 to " + (from - 1) + " are not shown: the latest " + view.log.length +
      " are." : "";
    const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
    for (const e of view.log) log.appendChild(el("li", "entry " + e.kind, e.text));
    if (atEnd) log.scrollTop = log.scrollHeight; // kept at the latest, unless the reader scrolled back
  }

  // ------------------------------------------------------------------ the map
  function drawMap() {
    const before = document.querySelector("#map .map-frame");
    const scrolled = before ? [before.scrollLeft, before.scrollTop] : [0, 0];
    const into = clear($("map"));
    const m = view.map;
    if (!m) return;
    const head = el("div", "map-head");
    head.appendChild(el("h3", "", m.title));
    head.appendChild(zoomButtons());
    into.appendChild(head);
    // scaled so that the middle distance from a place to its nearest neighbour is 100 (as agents/map_svg.py)
    const k = scale(m.places);
    const places = m.places.map(function (p) { return Object.assign({}, p, { x: p.x * k, y: p.y * k }); });
    const names = m.names.map(function (n) { return Object.assign({}, n, { x: n.x * k, y: n.y * k }); });
    // the picture holds every place with its label and every region's name whole: a name
    // is centred on its point and about 16 units a letter wide at its size (a name at the
    // edge, "the Western Sound", was cut in half)
    const pad = 70, half = function (n) { return n.text.length * 9 + 20; };
    const lefts = places.map(function (p) { return p.x - pad; }).concat(names.map(function (n) { return n.x - half(n); }));
    const rights = places.map(function (p) { return p.x + pad; }).concat(names.map(function (n) { return n.x + half(n); }));
    const ys = places.map(function (p) { return p.y; }).concat(names.map(function (n) { return n.y; }));
    const left = Math.min.apply(null, lefts), top = Math.min.apply(null, ys) - pad * 0.7;
    const width = Math.max.apply(null, rights) - left, height = Math.max.apply(null, ys) - top + pad;
    const pic = svg("svg", { viewBox: [left, top, width, height].join(" "), role: "img", class: "map" });
    pic.appendChild(svg("title")).textContent = m.title;
    const dashes = { solid: "", dashed: "7 5", dotted: "2 4" };
    for (const n of names) {
      const t = svg("text", { x: n.x, y: n.y, class: "region", "text-anchor": "middle" });
      t.textContent = n.text;
      pic.appendChild(t);
    }
    for (const line of m.lines) {
      const a = places[line.start], b = places[line.end];
      if (!a || !b) continue;
      let d = "M" + a.x + " " + a.y + " ";
      if (line.arc) {
        const mx = (a.x + b.x) / 2 - (b.y - a.y) * 0.2, my = (a.y + b.y) / 2 + (b.x - a.x) * 0.2;
        d += "Q" + mx + " " + my + " " + b.x + " " + b.y;
      } else {
        d += "L" + b.x + " " + b.y;
      }
      const path = svg("path", { d: d, class: "link " + line.style, fill: "none" });
      if (dashes[line.style]) path.setAttribute("stroke-dasharray", dashes[line.style]);
      const tip = svg("title");
      // said in the key's words ("sea route"), not the ruleset's name for the link ("seaway")
      const key = m.keys.find(function (k) { return k.style === line.style && !!k.arc === !!line.arc; });
      tip.textContent = (key ? key.label : line.link) + ": " + a.label + " – " + b.label;
      path.appendChild(tip);
      pic.appendChild(path);
    }
    // the places the decision offers (an option naming the place's card): ringed; a click
    // reads the card and takes the focus to its option (Enter or a click there answers)
    const offered = {};
    const d = view.decision;
    if (d && d.yours) for (const o of d.options) if (o.card && !(o.card in offered)) offered[o.card] = o.index;
    const above = labelsAbove(places);
    places.forEach(function (p, i) {
      const option = p.card && p.card in offered ? offered[p.card] : null;
      const g = svg("g", { class: option === null ? "place" : "place offered", "data-place": i });
      const dot = svg("circle", { cx: p.x, cy: p.y, r: 16, fill: colour(p.player) });
      g.appendChild(dot);
      const label = svg("text", { x: p.x, y: above[i] ? p.y - LABEL_ABOVE : p.y + LABEL_BELOW, "text-anchor": "middle",
                                  class: above[i] ? "label above" : "label" });
      label.textContent = p.label;
      g.appendChild(label);
      const marksAt = above[i] ? LABEL_BELOW - 16 : LABEL_BELOW;  // under the dot, where the label is not
      p.marks.forEach(function (mark, k) {
        const t = svg("text", { x: p.x, y: p.y + marksAt + 16 + 15 * k, "text-anchor": "middle", class: "mark" });
        t.textContent = mark;
        g.appendChild(t);
      });
      const tip = svg("title");
      tip.textContent = [p.label].concat(p.marks).concat(option === null ? [] : ["(an option: click to find it)"])
        .join("\n");
      g.appendChild(tip);
      if (p.card) {
        g.dataset.card = p.card;
        g.addEventListener("click", function () { read(p.card); });
      }
      if (option !== null) {
        g.dataset.option = String(option);
        g.addEventListener("click", function () {
          const button = document.querySelector('#options button.option[data-index="' + option + '"]');
          if (!button) return;
          button.scrollIntoView({ block: "nearest" });
          button.focus();
        });
      }
      pic.appendChild(g);
    });
    const frame = el("div", "map-frame");
    frame.dataset.zoom = String(mapZoom);
    if (mapZoom > 1) pic.style.width = (mapZoom * 100) + "%";
    frame.appendChild(pic);
    into.appendChild(frame);
    frame.scrollLeft = scrolled[0];
    frame.scrollTop = scrolled[1];
    const keys = el("p", "keys");
    for (const k of m.keys) {
      const key = el("span", "key " + k.style);
      key.appendChild(el("span", "stroke " + k.style));
      key.appendChild(document.createTextNode(k.label));
      keys.appendChild(key);
    }
    into.appendChild(keys);
  }

  // the zoom buttons: closer, farther, and the whole map (each says what it does when
  // pointed at, and is off where it can do nothing)
  function zoomButtons() {
    const bar = el("span", "zoom");
    const at = MAP_ZOOMS.indexOf(mapZoom);
    const button = function (text, title, to) {
      const b = el("button", "zoom-" + title.split(" ")[0], text);
      b.type = "button";
      b.title = title;
      b.setAttribute("aria-label", title);
      b.disabled = to === mapZoom;
      b.addEventListener("click", function () {
        const frame = document.querySelector("#map .map-frame");
        // keep the middle of what is seen in the middle
        const mid = frame ? [(frame.scrollLeft + frame.clientWidth / 2) / frame.scrollWidth,
                             (frame.scrollTop + frame.clientHeight / 2) / frame.scrollHeight] : [0.5, 0.5];
        mapZoom = to;
        drawMap();
        const now = document.querySelector("#map .map-frame");
        if (now) {
          now.scrollLeft = mid[0] * now.scrollWidth - now.clientWidth / 2;
          now.scrollTop = mid[1] * now.scrollHeight - now.clientHeight / 2;
        }
      });
      return b;
    };
    bar.appendChild(button("\u2212", "zoom out", MAP_ZOOMS[Math.max(0, at - 1)]));
    bar.appendChild(button("+", "zoom in", MAP_ZOOMS[Math.min(MAP_ZOOMS.length - 1, at + 1)]));
    bar.appendChild(button("whole map", "whole map", 1));
    return bar;
  }

  // where each place's label goes: under its dot, or over it where the label under it
  // would cover more of a label already placed (two long names side by side), a dot or
  // its marks; labels are about 0.6 of their size a letter wide (table.css: .label 17px,
  // .mark 14px)
  const LABEL_BELOW = 34, LABEL_ABOVE = 24;
  function labelsAbove(places) {
    const boxes = places.map(function (p) { return [p.x - 17, p.y - 17, p.x + 17, p.y + 17]; });  // the dots
    const width = function (text, size) { return text.length * size * 0.6 + 4; };
    const box = function (p, text, size, baseline) {
      const half = width(text, size) / 2;
      return [p.x - half, p.y + baseline - size * 0.8, p.x + half, p.y + baseline + size * 0.25];
    };
    const covered = function (b) {  // how much of what is placed the box covers
      let area = 0;
      for (const o of boxes) area += Math.max(0, Math.min(b[2], o[2]) - Math.max(b[0], o[0])) *
                                     Math.max(0, Math.min(b[3], o[3]) - Math.max(b[1], o[1]));
      return area;
    };
    return places.map(function (p) {
      const below = box(p, p.label, 17, LABEL_BELOW), over = box(p, p.label, 17, -LABEL_ABOVE);
      const under = covered(below);
      const up = under > 0 && covered(over) < under;
      boxes.push(up ? over : below);
      p.marks.forEach(function (mark, k) {
        boxes.push(box(p, mark, 14, (up ? LABEL_BELOW - 16 : LABEL_BELOW) + 16 + 15 * k));
      });
      return up;
    });
  }

  function scale(points) {
    const nearest = [];
    points.forEach(function (p, i) {
      let best = Infinity;
      points.forEach(function (q, j) {
        const gap = Math.hypot(p.x - q.x, p.y - q.y);
        if (j !== i && gap > 0 && gap < best) best = gap;
      });
      if (best < Infinity) nearest.push(best);
    });
    if (!nearest.length) return 1;
    nearest.sort(function (a, b) { return a - b; });
    return 100 / nearest[Math.floor(nearest.length / 2)];
  }

  // ------------------------------------------------------------------ a card read in full
  function read(id, asked) {
    const card = view && view.cards[id];
    if (!card) return;
    reading = id;
    $("reader").hidden = false;
    $("reader-title").textContent = card.lines.length ? card.lines[0] : card.name + " (" + card.kind + ")";
    const lines = clear($("reader-lines"));
    for (const line of card.lines.slice(1)) lines.appendChild(el("li", "", line));
    if (asked) $("reader").focus();
  }

  function closeReader() {
    reading = null;
    $("reader").hidden = true;
  }

  // ------------------------------------------------------------------ start
  document.addEventListener("DOMContentLoaded", function () {
    document.addEventListener("keydown", function (event) {
      if (["Enter", " ", "Tab", "ArrowDown", "ArrowUp"].indexOf(event.key) >= 0) byKeys = true;
    }, true);
    document.addEventListener("pointerdown", function () { byKeys = false; }, true);
    $("options").addEventListener("keydown", optionsKeys);
    $("undo").addEventListener("click", function () { send({ type: "undo" }); });
    $("save").addEventListener("click", function () { send({ type: "save" }); });
    $("reader").addEventListener("click", closeReader);
    $("reader").addEventListener("keydown", function (event) {
      if (event.key === "Escape" || event.key === "Enter") closeReader();
    });
    $("log-details").addEventListener("toggle", function () {
      const log = $("log");
      if ($("log-details").open) log.scrollTop = log.scrollHeight; // opened at the latest entry
    });
    $("ready").addEventListener("click", function () {
      const seat = $("ready").dataset.seat;
      if (seat === undefined) return;
      $("ready").disabled = true;
      send({ type: "ready", seat: Number(seat) });
    });
    connect();
  });
})();
