/* The scoring checker, enhanced: the same GET form, checked live through the JSON API.
   Without this file the form submits and the server renders the same ruling.
   The form <-> request conversion mirrors webapp/checker_form.py; the referee decides. */
(function () {
  "use strict";
  var form = document.getElementById("checker-form");
  if (!form || !window.fetch) { return; }
  var i18n = JSON.parse(document.getElementById("checker-i18n").textContent);
  var ds = form.dataset;
  var mode = ds.mode;
  var lang = ds.lang;
  var numbers = new Intl.NumberFormat(lang);
  var N = i18n.geisha_names.length;
  var ruling = document.getElementById("ruling");
  var permalink = document.getElementById("permalink");
  var SAFE = { "%3A": ":", "%2C": ",", "%2F": "/" };

  function fmt(template, values) {
    return template.replace(/%\((\w+)\)[sd]/g, function (m, key) {
      return values[key] === undefined ? m : String(values[key]);
    });
  }
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined && text !== null) { node.textContent = text; }
    return node;
  }
  function field(name) { return form.elements.namedItem(name); }
  function value(name) {
    var f = field(name);
    if (!f) { return ""; }
    if (f instanceof RadioNodeList) { return f.value || ""; }
    if (f.type === "checkbox") { return f.checked ? f.value : ""; }
    return (f.value || "").trim();
  }
  function values(name) {
    return Array.prototype.map.call(form.querySelectorAll('[name="' + name + '"]'), function (f) { return f.value; });
  }
  function num(raw) {
    var t = String(raw).trim();
    return /^\+?\d{1,7}$/.test(t) ? parseInt(t, 10) : t;
  }

  // -- the form's state, its request document and its permalink (as checker_form.py) --------
  function readState() {
    var st = {
      names: { a: field("na").value, b: field("nb").value },
      edition: value("edition"), round_limit: value("round_limit"),
      simultaneous_goal: value("simultaneous_goal"), round: value("round"),
      removed: value("removed"), favor: [], counts: { a: values("a"), b: values("b") },
      log: values("act"), pending: {}
    };
    for (var i = 0; i < N; i++) {
      var f = value("f" + i);
      st.favor.push(f === "-" ? "" : f);
    }
    ["do", "c1", "c2", "c3", "c4", "take"].forEach(function (k) { st.pending[k] = value(k); });
    return st;
  }
  function boardBlank(st) {
    return !st.counts.a.concat(st.counts.b).some(function (v) { return v.trim() !== ""; });
  }
  function firstPlayer(round) {
    var n = typeof round === "number" && round >= 1 ? round : 1;
    return n % 2 === 1 ? ds.first : (ds.first === "a" ? "b" : "a");
  }
  function parseAct(token) {
    var parts = token.split(":");
    var entry = { action: parts[0] };
    var cards = parts[1] || "";
    entry.cards = cards.indexOf("/") >= 0
      ? cards.split("/").map(function (g) { return g.split(",").filter(Boolean); })
      : cards.split(",").filter(Boolean);
    if (parts.length > 2 && parts[2] !== "") {
      var n = num(parts[2]);
      entry.taken = entry.action === "competition" && typeof n === "number" && n >= 1 ? n - 1 : parts[2];
    }
    return entry;
  }
  function pendingEntry(p) {
    var cards = [p.c1, p.c2, p.c3, p.c4];
    var entry = { action: p["do"] };
    var option = field("do") && field("do").selectedOptions[0];
    var split = option && option.dataset.split === "1";
    var chooser = option ? option.dataset.chooser : "";
    entry.cards = split ? [cards.slice(0, 2).filter(Boolean), cards.slice(2, 4).filter(Boolean)]
                        : cards.filter(Boolean);
    if (chooser !== "none" && p.take) {
      var n = num(p.take);
      entry.taken = split ? (typeof n === "number" && n >= 1 ? n - 1 : p.take) : p.take;
    }
    return entry;
  }
  function actToken(entry) {
    var c = entry.cards || [];
    var text = c.length && Array.isArray(c[0]) ? c.map(function (g) { return g.join(","); }).join("/") : c.join(",");
    var token = entry.action + ":" + text;
    if ("taken" in entry) { token += ":" + (typeof entry.taken === "number" ? entry.taken + 1 : entry.taken); }
    return token;
  }
  function bool(raw) {
    var t = raw.toLowerCase();
    if (["1", "on", "true", "yes"].indexOf(t) >= 0) { return true; }
    if (["", "0", "off", "false", "no"].indexOf(t) >= 0) { return false; }
    return raw;
  }
  function limitValue(raw) {  // "" is the edition's own rule; otherwise on (1) or off (0)
    var b = bool(raw);
    return b === true ? "1" : b === false ? "0" : raw;
  }
  function buildRequest(st, withPending) {
    var doc = { game: "hanamikoji" };
    if (st.edition) { doc.edition = st.edition; }
    var variants = {};
    if (st.round_limit) { variants.round_limit = bool(st.round_limit); }
    if (st.simultaneous_goal) { variants.simultaneous_goal = st.simultaneous_goal; }
    if (Object.keys(variants).length) { doc.variants = variants; }
    var players = {};
    ["a", "b"].forEach(function (p) { if (st.names[p] !== "") { players[p] = st.names[p]; } });
    if (Object.keys(players).length) { doc.players = players; }
    var round = st.round ? num(st.round) : 1;
    var start = { round: round };
    var favor = st.favor.map(function (v) { return v || null; });
    if (favor.some(Boolean) || round !== 1) { start.favor = favor; }
    doc.start = start;
    var rnd = {};
    if (st.removed) { rnd.removed = st.removed; }
    if (mode === "board") {
      if (boardBlank(st)) { return null; }
      rnd.board = {};
      ["a", "b"].forEach(function (p) {
        rnd.board[p] = st.counts[p].map(function (v) { return v.trim() ? num(v) : 0; });
      });
    } else {
      var mover = firstPlayer(round);
      rnd.actions = st.log.map(function (token) {
        var entry = Object.assign({ player: mover }, parseAct(token));
        mover = mover === "a" ? "b" : "a";
        return entry;
      });
      if (withPending) { rnd.actions.push(Object.assign({ player: mover }, pendingEntry(st.pending))); }
    }
    doc.rounds = [rnd];
    return doc;
  }
  function query(st, over) {
    over = over || {};
    var items = [];
    if (mode !== "board") { items.push(["mode", mode]); }
    ["a", "b"].forEach(function (p) { if (st.names[p]) { items.push(["n" + p, st.names[p]]); } });
    if (st.edition && st.edition !== ds.edition) { items.push(["edition", st.edition]); }
    if (st.round_limit) { items.push(["round_limit", limitValue(st.round_limit)]); }
    if (st.simultaneous_goal && st.simultaneous_goal !== ds.goal) { items.push(["simultaneous_goal", st.simultaneous_goal]); }
    var round = String(over.round !== undefined ? over.round : st.round);
    if (round && round !== "1") { items.push(["round", round]); }
    var favor = over.favor || st.favor;
    if (favor.some(Boolean)) { items.push(["fav", favor.map(function (v) { return v || "-"; }).join("")]); }
    if (mode === "board" && !over.blank) {
      ["a", "b"].forEach(function (p) {
        if (st.counts[p].some(function (v) { return v.trim(); })) {
          items.push([p, st.counts[p].map(function (v) { return v.trim() || "0"; }).join(",")]);
        }
      });
    }
    if (!over.blank && st.removed) { items.push(["removed", st.removed]); }
    if (mode === "log") { (over.log || st.log).forEach(function (t) { items.push(["act", t]); }); }
    return items.map(function (kv) {
      return encodeURIComponent(kv[0]) + "=" + encodeURIComponent(kv[1]).replace(/%3A|%2C|%2F/g, function (m) { return SAFE[m]; });
    }).join("&");
  }
  function pageUrl(qs) { return ds.base + (qs ? "?" + qs : ""); }
  function ruleUrl(rule, st) {
    var q = [];
    if (st.edition && st.edition !== ds.edition) { q.push("edition=" + encodeURIComponent(st.edition)); }
    if (st.round_limit) { q.push("round_limit=" + encodeURIComponent(limitValue(st.round_limit))); }
    if (st.simultaneous_goal && st.simultaneous_goal !== ds.goal) { q.push("simultaneous_goal=" + encodeURIComponent(st.simultaneous_goal)); }
    return ds.rules + (q.length ? "?" + q.join("&") : "") + (rule ? "#" + rule : "");
  }

  // -- field messages ------------------------------------------------------------------
  function fieldFor(path, logLength) {
    var parts = path ? path.split("/").slice(1) : [];
    if (!parts.length) { return "general"; }
    var head = parts[0];
    if (head === "players" && parts.length > 1) { return "name-" + parts[1]; }
    if (head === "edition") { return "edition"; }
    if (head === "variants") { return ["round_limit", "simultaneous_goal"].indexOf(parts[1]) >= 0 ? parts[1] : "general"; }
    if (head === "start") {
      if (parts[1] === "round") { return "round"; }
      if (parts[1] === "favor") { return parts.length > 2 ? "col-" + parts[2] : "fav"; }
      return "general";
    }
    if (head === "rounds" && parts.length > 2) {
      var rest = parts.slice(2);
      if (rest[0] === "removed") { return "removed"; }
      if (rest[0] === "board") { return rest.length === 2 ? "side-" + rest[1] : (rest.length >= 3 ? "col-" + rest[2] : "general"); }
      if (rest[0] === "actions") {
        if (rest.length === 1) { return "log"; }
        if (/^\d+$/.test(rest[1]) && parseInt(rest[1], 10) >= logLength) {
          return { action: "do", cards: "cards", taken: "take" }[rest[2]] || "do";
        }
        return "log-" + rest[1];
      }
    }
    return "general";
  }
  function showErrors(errors, st) {
    var byField = {};
    errors.forEach(function (e) {
      var key = fieldFor(e.path || "", st.log.length);
      if (!document.getElementById("msg-" + key)) { key = "general"; }
      (byField[key] = byField[key] || []).push(e);
    });
    document.querySelectorAll(".field-msg").forEach(function (box) {
      var key = box.dataset.field;
      box.textContent = "";
      (byField[key] || []).forEach(function (e) {
        var p = el("p", { "class": "field-msg__text" }, e.message);
        if (e.rule) {
          p.appendChild(document.createTextNode(" "));
          p.appendChild(el("a", { "class": "rule-link", href: ruleUrl(e.rule, st) }, e.rule));
        }
        box.appendChild(p);
      });
      form.querySelectorAll('[aria-describedby~="msg-' + key + '"]').forEach(function (f) {
        if (byField[key]) { f.setAttribute("aria-invalid", "true"); } else { f.removeAttribute("aria-invalid"); }
      });
    });
  }

  // -- the ruling ------------------------------------------------------------------------
  function setRuling(status, winner, nodes, response) {
    ruling.dataset.status = status;
    ruling.dataset.winner = winner || "";
    var body = document.getElementById("ruling-body");
    body.textContent = "";
    nodes.forEach(function (n) { body.appendChild(n); });
    document.getElementById("ruling-data").textContent = JSON.stringify(response === undefined ? null : response);
  }
  function hint(text, status, response) {
    setRuling(status, "", [el("p", { "class": "ruling__hint", id: "ruling-hint" }, text)], response);
  }
  function explanationList(steps, tag, st) {
    var list = el(tag, { "class": "ruling__explanation", id: "ruling-explanation" });
    steps.forEach(function (step) {
      var li = el("li", {}, step.message);
      if (step.rule) {
        li.appendChild(document.createTextNode(" "));
        li.appendChild(el("a", { "class": "rule-link", href: ruleUrl(step.rule, st) }, step.rule));
      }
      list.appendChild(li);
    });
    return list;
  }
  function renderRuling(res, st) {
    var rnd = res.rounds[res.rounds.length - 1];
    var players = res.players;
    var nodes = [];
    if (rnd.progress) {
      nodes.push(el("p", { "class": "ruling__result", id: "ruling-result" }, fmt(i18n.turn, {
        number: numbers.format(rnd.progress.action_number), total: numbers.format(8),
        player: players[rnd.progress.to_act] })));
      nodes.push(explanationList(rnd.explanation, "ul", st));
      setRuling(res.result.status, null, nodes, res);
      return;
    }
    var result = res.result.message || (res.next ? fmt(i18n["continue"], {
      round: numbers.format(res.next.round), player: players[res.next.first_player] }) : "");
    nodes.push(el("p", { "class": "ruling__result", id: "ruling-result" }, result));
    var board = el("ol", { "class": "board__row board__row--ruling", id: "ruling-board", "aria-label": i18n.ruling_board });
    var cols = document.querySelectorAll("#board .board__col");
    for (var i = 0; i < N; i++) {
      var holder = rnd.favor[i] || "";
      var colour = (cols[i].querySelector(".geisha").className.match(/geisha--\w+/) || [""])[0];
      var li = el("li", { "class": "ruled " + colour + " ruled--" + (holder || "middle"), "data-favor": holder });
      li.appendChild(el("span", { "class": "ruled__count ruled__count--b" }, fmt(i18n.side_cards, { player: players.b, num: numbers.format(rnd.board.b[i]) })));
      var name = el("span", { "class": "geisha__name" }, i18n.geisha_names[i] + " ");
      name.appendChild(el("span", { "class": "ruled__charm" }, "(" + cols[i].querySelector(".geisha__charm").textContent + ")"));
      li.appendChild(name);
      li.appendChild(el("span", { "class": "ruled__marker" }, fmt(i18n.marker[holder], { player: players[holder] })));
      li.appendChild(el("span", { "class": "ruled__count ruled__count--a" }, fmt(i18n.side_cards, { player: players.a, num: numbers.format(rnd.board.a[i]) })));
      board.appendChild(li);
    }
    nodes.push(board);
    var totals = el("ul", { "class": "ruling__totals", id: "ruling-totals" });
    ["a", "b"].forEach(function (p) {
      var li = el("li", { id: "total-" + p, "data-geishas": rnd.geishas[p], "data-charm": rnd.charm[p] },
        fmt(i18n.totals, { player: players[p], geishas: i18n.geishas[rnd.geishas[p]], charm: i18n.charm[rnd.charm[p]] }));
      if (res.result.winner === p) { li.className = "is-winner"; }
      totals.appendChild(li);
    });
    nodes.push(totals);
    nodes.push(el("h3", { id: "explanation-title" }, i18n.why));
    nodes.push(explanationList(rnd.explanation, "ol", st));
    if (res.alternatives.length) {
      var alt = el("div", { id: "ruling-alternatives" });
      alt.appendChild(el("h3", {}, i18n.alternatives));
      var ul = el("ul", { "class": "ruling__alternatives" });
      res.alternatives.forEach(function (a) { ul.appendChild(el("li", {}, a.message)); });
      alt.appendChild(ul);
      nodes.push(alt);
    }
    if (res.next) {
      var p = el("p", { "class": "ruling__next" });
      var favor = res.next.favor.map(function (v) { return v || ""; });
      p.appendChild(el("a", { "class": "button-link", id: "next-round",
        href: pageUrl(query(st, { round: res.next.round, favor: favor, blank: true, log: [] })) },
        fmt(i18n.next, { round: numbers.format(res.next.round) })));
      nodes.push(p);
    }
    setRuling(res.result.status, res.result.winner, nodes, res);
  }

  // -- talking to the referee ------------------------------------------------------------
  var pending = null;
  function ask(doc) {
    if (pending) { pending.abort(); }
    pending = new AbortController();
    return fetch(ds.api, {
      method: "POST", headers: { "Content-Type": "application/json", "Accept": "application/json" },
      body: JSON.stringify(doc), signal: pending.signal
    }).then(function (r) {
      return r.json().then(function (body) { return { ok: r.ok, body: body }; });
    });
  }
  function syncUrl(st) {
    var url = pageUrl(query(st));
    history.replaceState(null, "", url);
    permalink.href = url;
    permalink.textContent = permalink.href;
  }
  function relabel(st) {
    var names = { a: st.names.a.trim() || i18n.players.a, b: st.names.b.trim() || i18n.players.b };
    form.querySelectorAll("label[data-geisha]").forEach(function (label) {
      label.textContent = fmt(i18n.cards_label, { player: names[label.dataset.player], geisha: i18n.geisha_names[+label.dataset.geisha] });
    });
    form.querySelectorAll(".marker label[data-player]").forEach(function (label) {
      if (names[label.dataset.player]) { label.textContent = names[label.dataset.player]; }
    });
  }
  function update() {
    var st = readState();
    relabel(st);
    syncUrl(st);
    var doc = buildRequest(st, false);
    document.getElementById("request-data").textContent = JSON.stringify(doc);
    if (!doc) { showErrors([], st); hint(i18n.empty, "empty", null); return; }
    ask(doc).then(function (r) {
      if (r.ok) { showErrors([], st); renderRuling(r.body, st); }
      else { showErrors(r.body.errors || [{ path: "", message: r.body.title }], st); hint(i18n.check_fields, "invalid", { valid: false, errors: r.body.errors || [] }); }
    }).catch(function (e) { if (e.name !== "AbortError") { hint(i18n.offline, "invalid", null); } });
  }
  var timer = null;
  function soon() { clearTimeout(timer); timer = setTimeout(update, 250); }

  // -- log mode: the action being added ----------------------------------------------------
  function shapeNewAction() {
    var select = field("do");
    if (!select) { return; }
    var option = select.selectedOptions[0];
    var count = option && option.dataset.cards ? +option.dataset.cards : 4;
    for (var k = 1; k <= 4; k++) { document.getElementById("slot-" + k).hidden = k > count; }
    var chooser = option ? option.dataset.chooser : "";
    var takeField = document.getElementById("take-field");
    takeField.hidden = chooser === "none";
    var split = option && option.dataset.split === "1";
    document.querySelectorAll("#take optgroup").forEach(function (group) {
      var show = !option || !option.value || (group.dataset.for === "competition") === split;
      group.hidden = !show;
      group.disabled = !show;
    });
  }
  function addAction(event) {
    if (!field("do")) { return; }  // a finished round: the plain submit re-checks it
    event.preventDefault();
    var st = readState();
    if (!st.pending["do"]) { showErrors([{ path: "/rounds/0/actions/" + st.log.length + "/action", message: i18n.do_missing, rule: null }], st); return; }
    // Leave out the card slots and the choice this action does not use.
    var option = field("do").selectedOptions[0];
    for (var k = +option.dataset.cards + 1; k <= 4; k++) { st.pending["c" + k] = ""; }
    ask(buildRequest(st, true)).then(function (r) {
      if (r.ok) { accepted(st, buildRequest(st, true), r.body); return; }
      showErrors(r.body.errors || [], st);
      var focusKey = (r.body.errors || []).map(function (e) { return fieldFor(e.path, st.log.length); })[0];
      var target = { "do": "do", cards: "c1", take: "take" }[focusKey];
      if (target && document.getElementById(target)) { document.getElementById(target).focus(); }
    }).catch(function () { form.submit(); });
  }

  // The action is in: append it to the log, and show whose turn it is now (no reload).
  function accepted(st, doc, res) {
    var actions = doc.rounds[0].actions;
    var entry = actions[actions.length - 1];
    var token = actToken(entry);
    var log = st.log.concat([token]);
    var players = res.players;
    var list = document.getElementById("log-list");
    if (!list) {
      list = el("ol", { "class": "log__list", id: "log-list" });
      var empty = document.getElementById("log-empty");
      empty.parentNode.replaceChild(list, empty);
      var undoP = el("p");
      undoP.appendChild(el("a", { id: "undo", href: "#" }, i18n.undo));
      list.parentNode.insertBefore(undoP, list.nextSibling);
    }
    var li = el("li", { id: "log-" + (log.length - 1), "class": "log__entry" });
    li.appendChild(el("span", { "class": "log__who" }, players[entry.player]));
    li.appendChild(document.createTextNode(": "));
    li.appendChild(el("span", { "class": "term" }, i18n.actions[entry.action]));
    var names = function (c) { return c.map(function (g) { return i18n.geisha_names[geishaIndex(g)]; }).join(", "); };
    var cards = entry.cards.length && Array.isArray(entry.cards[0]) ? entry.cards.map(names).join(" | ") : names(entry.cards);
    var text = " — " + cards;
    if ("taken" in entry) {
      var what = typeof entry.taken === "number" ? fmt(i18n.set, { num: numbers.format(entry.taken + 1) }) : i18n.geisha_names[geishaIndex(entry.taken)];
      text += "; " + fmt(i18n.took, { player: players[entry.player === "a" ? "b" : "a"], what: what });
    }
    li.appendChild(document.createTextNode(text));
    li.appendChild(el("input", { type: "hidden", name: "act", value: token }));
    list.appendChild(li);
    st.log = log;
    document.getElementById("undo").href = pageUrl(query(st, { log: log.slice(0, -1) }));
    syncUrl(st);
    document.getElementById("request-data").textContent = JSON.stringify(buildRequest(st, false));
    showErrors([], st);
    var refused = document.getElementById("refused");
    if (refused) { refused.remove(); }
    renderRuling(res, st);
    var progress = res.rounds[0].progress;
    var box = document.getElementById("new-action");
    if (!progress) {  // the eighth action: the round is scored
      var p = el("p", { "class": "checker__submit" });
      p.appendChild(el("button", { type: "submit", id: "check" }, i18n.check));
      box.parentNode.replaceChild(p, box);
      return;
    }
    var mover = progress.to_act;
    document.getElementById("new-action-title").textContent = fmt(i18n.turn_legend, {
      number: numbers.format(progress.action_number), total: numbers.format(8), player: players[mover] });
    document.querySelector('label[for="take"]').textContent = fmt(i18n.chose, { player: players[mover === "a" ? "b" : "a"] });
    var select = field("do");
    select.textContent = "";
    select.appendChild(el("option", { value: "" }, i18n.choose));
    progress.actions_left[mover].forEach(function (aid) {
      var info = i18n.action_info[aid];
      select.appendChild(el("option", { value: aid, "data-cards": info.cards, "data-split": info.split, "data-chooser": info.chooser },
        fmt(i18n.action_option, { action: i18n.actions[aid], count: i18n.cards_n[info.cards] })));
    });
    ["c1", "c2", "c3", "c4", "take"].forEach(function (k) { field(k).value = ""; });
    shapeNewAction();
    select.focus();
  }
  function geishaIndex(id) { return Math.max(0, i18n.geisha_ids.indexOf(id)); }

  // -- wiring ------------------------------------------------------------------------------
  var copy = document.getElementById("copy-link");
  if (copy && navigator.clipboard) {
    copy.hidden = false;
    copy.addEventListener("click", function () {
      navigator.clipboard.writeText(permalink.href).then(function () {
        document.getElementById("copy-status").textContent = i18n.copied;
      });
    });
  }
  if (mode === "board") {
    form.addEventListener("input", soon);
    form.addEventListener("change", soon);
    form.addEventListener("submit", function (event) { event.preventDefault(); update(); });
  } else {
    form.addEventListener("input", function (event) {
      if (event.target.closest("#new-action")) { return; }
      relabel(readState());
    });
    if (field("do")) {
      field("do").addEventListener("change", shapeNewAction);
      shapeNewAction();
    }
    form.addEventListener("submit", addAction);
  }
})();
