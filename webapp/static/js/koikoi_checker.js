/* Koi-Koi scoring checker: progressive enhancement of the GET form.
   On every change the form's state is sent to POST /api/v1/koikoi/score?lang=..; the
   yaku found light up (with their cards on the chart), the score and its explanation
   are shown, errors go next to their fields, and the URL becomes the permalink.
   Without this file the form submits and the server renders the same ruling. */
(function () {
  "use strict";

  var form = document.getElementById("kk-form");
  if (!form || !window.fetch) { return; }
  var result = document.getElementById("result");
  var dataTag = document.getElementById("ruling-data");
  var PLAYERS = ["a", "b"];
  var seq = 0;
  var timer = null;

  function $(id) { return document.getElementById(id); }

  function checked(name) {
    var out = [];
    form.querySelectorAll('input[name="' + name + '"]:checked').forEach(function (box) {
      out.push(parseInt(box.value, 10));
    });
    return out;
  }

  /* The form as {query: {...} (compact permalink), request: {...} (referee JSON)}. */
  function collect() {
    var winnerBox = form.querySelector('input[name="winner"]:checked');
    var winner = winnerBox ? winnerBox.value : "a";
    var query = [];
    var piles = {};
    var calls = {};
    PLAYERS.forEach(function (p) {
      piles[p] = checked(p);
      if (piles[p].length) { query.push([p, piles[p].join(",")]); }
    });
    query.push(["winner", winner]);
    PLAYERS.forEach(function (p) {
      var raw = form.elements["k" + p].value.trim();
      query.push(["k" + p, raw === "" ? "0" : raw]);
      calls[p] = raw === "" ? 0 : (/^\d{1,3}$/.test(raw) ? parseInt(raw, 10) : raw);
    });
    var ruleset = form.elements.ruleset.value;
    query.push(["ruleset", ruleset]);
    var options = {};
    form.querySelectorAll("select[data-rule]").forEach(function (select) {
      if (!select.value) { return; }
      query.push([select.name, select.value]);
      var chosen = select.options[select.selectedIndex];
      options[select.name] = JSON.parse(chosen.getAttribute("data-json"));
    });
    var winnerValue = winner === "none" ? null : winner;
    var captured = {};
    PLAYERS.forEach(function (p) {
      if (piles[p].length || p === winnerValue) { captured[p] = piles[p]; }
    });
    return {
      query: query,
      ruleset: ruleset,
      winner: winnerValue,
      request: {game: "koikoi", ruleset: ruleset, options: options,
                rounds: [{winner: winnerValue, captured: captured, koikoi: calls}]}
    };
  }

  function queryString(pairs) {
    return pairs.map(function (kv) {
      return encodeURIComponent(kv[0]) + "=" + encodeURIComponent(kv[1]).replace(/%2C/g, ",");
    }).join("&");
  }

  /* A referee error's JSON pointer -> the form field it belongs to. */
  function fieldOf(path) {
    var parts = path.replace(/^\//, "").split("/");
    if (parts[0] === "ruleset") { return "ruleset"; }
    if (parts[0] === "options" && parts[1]) { return parts[1]; }
    if (parts[0] === "rounds" && parts.length > 2) {
      if (parts[2] === "captured" && (parts[3] === "a" || parts[3] === "b")) { return parts[3]; }
      if (parts[2] === "koikoi" && (parts[3] === "a" || parts[3] === "b")) { return "k" + parts[3]; }
      if (parts[2] === "winner") { return "winner"; }
    }
    return "form";
  }

  function clearErrors() {
    form.querySelectorAll("[data-error-for]").forEach(function (el) {
      el.hidden = true;
      el.textContent = "";
    });
    document.querySelectorAll(".has-error").forEach(function (el) { el.classList.remove("has-error"); });
    form.querySelectorAll("[aria-invalid]").forEach(function (el) { el.removeAttribute("aria-invalid"); });
    $("error-list").textContent = "";
    $("errors").hidden = true;
  }

  function showErrors(errors) {
    var list = $("error-list");
    errors.forEach(function (error) {
      var field = fieldOf(error.path || "");
      var slot = document.querySelector('[data-error-for="' + field + '"]');
      if (slot) {
        slot.textContent = slot.textContent ? slot.textContent + " " + error.message : error.message;
        slot.hidden = false;
      }
      var box = $("field-" + field);
      if (box) { box.classList.add("has-error"); }
      var control = form.elements[field];
      if (control && control.tagName) { control.setAttribute("aria-invalid", "true"); }
      var item = document.createElement("li");
      item.setAttribute("data-field", field);
      if (box) {
        var link = document.createElement("a");
        link.href = "#field-" + field;
        link.textContent = error.message;
        item.appendChild(link);
      } else {
        item.textContent = error.message;
      }
      list.appendChild(item);
    });
    $("errors").hidden = errors.length === 0;
  }

  function clearRuling() {
    document.querySelectorAll(".kk-yaku.is-scored").forEach(function (li) { li.classList.remove("is-scored"); });
    document.querySelectorAll(".kk-yaku__points").forEach(function (span) { span.textContent = ""; });
    document.querySelectorAll(".kk-card.is-yaku").forEach(function (li) { li.classList.remove("is-yaku"); });
    $("explanation").textContent = "";
    $("explanation-title").hidden = true;
    $("result-score").hidden = true;
    $("livebar").hidden = true;
  }

  function rulesHref(rule, state) {
    var pairs = state.query.filter(function (kv) {
      return kv[0] === "ruleset" || form.querySelector('select[data-rule][name="' + kv[0] + '"]');
    });
    return form.getAttribute("data-rules") + "?" + queryString(pairs) + "#" + encodeURIComponent(rule);
  }

  function showRuling(ruling, state) {
    var round = ruling.rounds[0];
    round.yaku.forEach(function (y) {
      var li = $("yaku-" + y.id);
      if (li) { li.classList.add("is-scored"); }
      var points = $("yaku-points-" + y.id);
      if (points) { points.textContent = String(y.points); }
      if (round.winner) {
        y.cards.forEach(function (slug) {
          var tile = $("pile-" + round.winner + "-" + slug);
          if (tile) { tile.classList.add("is-yaku"); }
        });
      }
    });
    $("score-a").textContent = String(round.score.a);
    $("score-b").textContent = String(round.score.b);
    $("score-base").textContent = String(round.base);
    $("score-multiplier").textContent = String(round.multiplier);
    $("result-score").hidden = false;
    var list = $("explanation");
    round.explanation.forEach(function (step) {
      var item = document.createElement("li");
      item.setAttribute("data-rule", step.rule);
      var link = document.createElement("a");
      link.href = rulesHref(step.rule, state);
      link.textContent = step.message;
      var id = document.createElement("span");
      id.className = "kk-rule-id";
      id.textContent = step.rule;
      item.appendChild(link);
      item.appendChild(id);
      list.appendChild(item);
    });
    $("explanation-title").hidden = false;
    var names = round.yaku.map(function (y) {
      var li = $("yaku-" + y.id);
      return li ? li.querySelector(".kk-yaku__name").textContent + " " + y.points : y.id;
    });
    $("livebar-yaku").textContent = names.join(" · ");
    $("livebar-a").textContent = String(round.score.a);
    $("livebar-b").textContent = String(round.score.b);
    $("livebar").hidden = false;
  }

  function showRulesetYaku(ruleset) {
    document.querySelectorAll(".kk-yaku[data-rulesets]").forEach(function (li) {
      li.hidden = li.getAttribute("data-rulesets").split(" ").indexOf(ruleset) < 0;
    });
  }

  function update() {
    var state = collect();
    var mine = ++seq;
    showRulesetYaku(state.ruleset);
    var url = form.getAttribute("data-page") + "?" + queryString(state.query);
    history.replaceState(null, "", url);
    var permalink = $("permalink");
    permalink.href = url;
    permalink.hidden = false;
    $("result-empty").hidden = true;
    result.setAttribute("aria-busy", "true");
    fetch(form.getAttribute("data-api"), {
      method: "POST",
      headers: {"Content-Type": "application/json", "Accept": "application/json"},
      body: JSON.stringify(state.request)
    }).then(function (response) {
      return response.json().then(function (body) { return {ok: response.ok, body: body}; });
    }).then(function (answer) {
      if (mine !== seq) { return; }  // a newer change is on its way
      result.removeAttribute("aria-busy");
      clearErrors();
      clearRuling();
      var body = answer.body;
      if (answer.ok && body.valid) {
        dataTag.textContent = JSON.stringify(body);
        showRuling(body, state);
      } else {
        dataTag.textContent = JSON.stringify(body.errors ? {valid: false, errors: body.errors} : body);
        showErrors(body.errors || [{path: "", message: body.title || result.getAttribute("data-msg-failed")}]);
      }
    }).catch(function () {
      if (mine !== seq) { return; }
      result.removeAttribute("aria-busy");
      clearErrors();
      showErrors([{path: "", message: result.getAttribute("data-msg-failed")}]);
    });
  }

  function soon(delay) {
    window.clearTimeout(timer);
    timer = window.setTimeout(update, delay);
  }

  form.addEventListener("change", function () { soon(30); });
  form.addEventListener("input", function (event) {
    if (event.target.type === "number") { soon(250); }
  });
})();
