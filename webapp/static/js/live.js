/* Live forms, for any checker: the page works without this file, and it knows no game.

   A form marked `data-live` is a GET form whose page the server renders from the query.
   This script sends the form as it is (with the button pressed, if any) and puts the
   regions marked `data-live-region` of the page the server answers in place of the
   current ones, so the ruling follows every change without a reload; the address bar
   follows too (the permalink). Two kinds of buttons change a field here before asking:
     data-step="+1" data-for="<input id>"   add to a number, within its min and max;
     data-fill="<input name>"                put the button's value in the first empty
                                             field of that name.
   When the server cannot be reached, the region `data-live-offline` is shown and
   everything typed stays as it is. */
(function () {
  "use strict";
  var form = document.querySelector("form[data-live]");
  if (!form || !window.fetch || !window.DOMParser || !window.URLSearchParams) { return; }
  var offline = document.querySelector("[data-live-offline]");
  var timer = null;
  var asked = 0;
  var DELAY = 120;

  function query(submitter) {
    var params = new URLSearchParams();
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name || field.disabled || field.type === "submit" || field.type === "button") { return; }
      if ((field.type === "checkbox" || field.type === "radio") && !field.checked) { return; }
      params.append(field.name, field.value);
    });
    if (submitter && submitter.name) { params.append(submitter.name, submitter.value); }
    var text = params.toString();
    return form.getAttribute("action") + (text ? "?" + text : "");
  }

  function swap(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html");
    var focused = document.activeElement && document.activeElement.id;
    document.querySelectorAll("[data-live-region]").forEach(function (region) {
      var next = fresh.getElementById(region.id);
      if (!next) { region.hidden = true; return; }
      if (next.outerHTML !== region.outerHTML) { region.replaceWith(next); }
    });
    // regions the new page has and this one lacks cannot be placed: ask for the whole page
    var missing = Array.prototype.some.call(fresh.querySelectorAll("[data-live-region]"),
      function (region) { return !document.getElementById(region.id); });
    if (focused && document.getElementById(focused) && document.activeElement === document.body) {
      document.getElementById(focused).focus({ preventScroll: true });
    }
    return !missing;
  }

  function ask(submitter) {
    window.clearTimeout(timer);
    var mine = ++asked;
    var url = query(submitter);
    form.setAttribute("aria-busy", "true");
    fetch(url, { headers: { Accept: "text/html" }, credentials: "same-origin" })
      .then(function (response) {
        if (response.status >= 500) { throw new Error(String(response.status)); }
        return response.text().then(function (html) { return [response.url, html]; });
      })
      .then(function (answer) {
        if (mine !== asked) { return; }
        if (offline) { offline.hidden = true; }
        if (!swap(answer[1])) { window.location.assign(answer[0]); return; }
        window.history.replaceState(null, "", answer[0]);
      })
      .catch(function () {
        if (mine === asked && offline) { offline.hidden = false; }
      })
      .then(function () { if (mine === asked) { form.removeAttribute("aria-busy"); } });
  }

  function later() {
    window.clearTimeout(timer);
    timer = window.setTimeout(function () { ask(null); }, DELAY);
  }

  function step(button) {
    var field = document.getElementById(button.getAttribute("data-for"));
    if (!field) { return false; }
    var value = parseInt(field.value, 10) || 0;
    var next = value + parseInt(button.getAttribute("data-step"), 10);
    var min = field.min === "" ? -Infinity : Number(field.min);
    var max = field.max === "" ? Infinity : Number(field.max);
    field.value = String(Math.max(min, Math.min(max, next)));
    return true;
  }

  function fill(button) {
    var empty = Array.prototype.filter.call(form.elements, function (field) {
      return field.name === button.getAttribute("data-fill") && field.value === "";
    });
    if (!empty.length) { return false; }
    empty[0].value = button.value;
    return true;
  }

  form.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-step], button[data-fill]");
    if (!button || !form.contains(button)) { return; }
    var changed = button.hasAttribute("data-step") ? step(button) : fill(button);
    if (!changed) { return; }  // nothing to change here: let the server say why
    event.preventDefault();
    later();
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    ask(event.submitter || null);
  });
  form.addEventListener("change", later);
  form.addEventListener("input", function (event) {
    if (event.target.type !== "radio" && event.target.type !== "checkbox") { later(); }
  });

  // The copy-link button: only where the Clipboard API is there.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy]");
    if (!button || !navigator.clipboard) { return; }
    navigator.clipboard.writeText(window.location.href).then(function () {
      var status = document.getElementById(button.getAttribute("data-copy"));
      if (status) { status.textContent = status.getAttribute("data-done"); }
    });
  });
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    if (navigator.clipboard) { button.hidden = false; }
  });
})();
