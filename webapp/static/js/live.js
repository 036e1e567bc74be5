/* Live forms, for any checker: the page works without this file, and it knows no game.

   A form marked `data-live` is a GET form whose page the server renders from the query.
   This script sends the form as it is (with the button pressed, if any), asking with the
   header `Shinpan-Live: regions` for the page's live parts alone (the server may still
   answer a whole page), and puts the regions marked `data-live-region` of that answer in
   place of the current ones, so the ruling follows every change without a reload; the
   address bar follows too (the answer's `data-live-address`, the form's tidy address, if
   it has one; else the tidier address the server answered for, `Shinpan-Live-Address`).
   After each answer the page hands its offline copy to the service worker
   (static/js/sw.js): the page as it now is, each field's value written into its tag.
   Two kinds of buttons change a field here before asking:
     data-step="+1" data-for="<input id>"   add to a number, within its min and max;
     data-fill="<input name>"                put the button's value in the first empty
                                             field of that name.
   Fields are not swapped (what is being typed stays as it is); those marked
   `data-live-attrs` take the answer's class, aria-invalid and aria-describedby (and a
   <details> opens when the answer's is open).
   Focus stays where it was; when that element is gone, it goes where the button pressed
   points (`formaction="…#target"`, where the page without this script opens). The control
   the person touched last stays where it was on the screen: when an answer shows or hides
   something above it (a hint, an error), the page scrolls by as much, so the next tap
   still lands where the finger is going.
   Fields sharing a `data-rove` value are one tab stop (a roving tabindex): the arrow keys
   left and right move between them, and `data-rove-hint` (which says so) is shown.
   Elements marked `data-live-hidden` are only needed without this script (a submit
   button for fields that update live) and are hidden.
   When the server cannot be reached, the region `data-live-offline` is shown, everything
   typed stays as it is, and the form is sent again: once the browser is back online, and
   after a growing wait (a server that was down brings no "online" event). A page opened
   from the service worker's copy (`<html data-copy>`, no ruling) is sent at once. */
(function () {
  "use strict";
  var form = document.querySelector("form[data-live]");
  if (!form || !window.fetch || !window.DOMParser || !window.URLSearchParams) { return; }
  var offline = document.querySelector("[data-live-offline]");
  var timer = null;
  var asked = 0;
  var failed = false;
  var DELAY = 120;
  // Unreachable: try again after 2 s, then twice as long each time up to 30 s, and at once
  // when the browser says it is back online (a server that was down fires no such event).
  var retry = null;
  var RETRY_FIRST = 2000;
  var RETRY_MOST = 30000;
  var retryWait = RETRY_FIRST;

  document.querySelectorAll("[data-live-hidden]").forEach(function (element) {
    element.hidden = true;
  });

  function address(submitter) {
    var params = new URLSearchParams();
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name || field.disabled || field.type === "submit" || field.type === "button") { return; }
      if ((field.type === "checkbox" || field.type === "radio") && !field.checked) { return; }
      params.append(field.name, field.value);
    });
    if (submitter && submitter.name) { params.append(submitter.name, submitter.value); }
    var url = new URL(form.getAttribute("action") || "", window.location.href);
    url.search = params.toString();
    url.hash = "";
    return url.toString();
  }

  function target(button) {
    var action = button && (button.getAttribute("formaction") || form.getAttribute("action"));
    var hash = action ? new URL(action, window.location.href).hash : "";
    return hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
  }

  // An element, or the one with its id that an answer put in its place.
  function current(element) {
    if (!element || document.contains(element)) { return element; }
    return (element.id && document.getElementById(element.id)) || null;
  }

  function refocus(focused, button) {
    var same = focused && focused !== document.body ? current(focused) : null;
    if (same && same === focused) { return; }  // still in place
    if (same) { same.focus({ preventScroll: true }); return; }
    var next = target(button);
    if (!next) { return; }
    next.focus({ preventScroll: true });
    var box = next.getBoundingClientRect();
    if (box.bottom < 0 || box.top > window.innerHeight) { next.scrollIntoView({ block: "start" }); }
  }

  var SYNCED = ["class", "aria-invalid", "aria-describedby"];

  function sync(fresh) {
    document.querySelectorAll("[data-live-attrs]").forEach(function (element) {
      var next = fresh.getElementById(element.id);
      if (!next) { return; }
      SYNCED.forEach(function (name) {
        var value = next.getAttribute(name);
        if (value === null) { element.removeAttribute(name); }
        else if (element.getAttribute(name) !== value) { element.setAttribute(name, value); }
      });
      // a disclosure the answer opens (the winner's pile) opens; one the person opened stays
      if (element.tagName === "DETAILS" && next.hasAttribute("open")) { element.open = true; }
    });
  }

  // The control the person changed last (a field, a +/- button, the submit button).
  var touched = null;

  function holdStill(anchor, top) {
    var now = current(anchor);
    if (!now) { return; }
    var moved = now.getBoundingClientRect().top - top;
    if (moved) { window.scrollBy(0, moved); }
  }

  function swap(fresh, button) {
    var focused = document.activeElement;
    var anchor = touched && document.contains(touched) ? touched : null;
    var top = anchor ? anchor.getBoundingClientRect().top : 0;
    document.querySelectorAll("[data-live-region]").forEach(function (region) {
      var next = fresh.getElementById(region.id);
      if (!next) { region.hidden = true; return; }
      if (next.outerHTML !== region.outerHTML) { region.replaceWith(next); }
    });
    // regions the new page has and this one lacks cannot be placed: ask for the whole page
    var missing = Array.prototype.some.call(fresh.querySelectorAll("[data-live-region]"),
      function (region) { return !document.getElementById(region.id); });
    if (!missing) { sync(fresh); holdStill(anchor, top); refocus(focused, button); }
    return !missing;
  }

  function ask(submitter, button) {
    window.clearTimeout(timer);
    window.clearTimeout(retry);
    var mine = ++asked;
    var url = address(submitter);
    form.setAttribute("aria-busy", "true");
    fetch(url, { headers: { Accept: "text/html", "Shinpan-Live": "regions" },
                 credentials: "same-origin" })
      .then(function (response) {
        if (response.status >= 500) { throw new Error(String(response.status)); }
        var moved = response.headers.get("Shinpan-Live-Address");  // a tidier address
        return response.text().then(function (html) {
          return [moved ? new URL(moved, window.location.href).toString() : response.url, html];
        });
      })
      .then(function (answer) {
        if (mine !== asked) { return; }
        failed = false;
        retryWait = RETRY_FIRST;
        if (offline) { offline.hidden = true; }
        var fresh = new DOMParser().parseFromString(answer[1], "text/html");
        var tidy = fresh.querySelector("form[data-live-address]");
        var here = tidy ? tidy.getAttribute("data-live-address") : answer[0];
        if (!swap(fresh, button || submitter)) { window.location.assign(here); return; }
        if (tidy) { form.setAttribute("data-live-address", here); }
        window.history.replaceState(null, "", here);
        keepCopy(here);
      })
      .catch(function () {
        if (mine !== asked) { return; }
        failed = true;
        if (offline) { offline.hidden = false; }
        retry = window.setTimeout(function () { ask(null); }, retryWait);
        retryWait = Math.min(retryWait * 2, RETRY_MOST);
      })
      .then(function () { if (mine === asked) { form.removeAttribute("aria-busy"); } });
  }

  // The offline copy, made here rather than by the worker: an answer holds the live parts
  // alone, and only the page knows what is typed in its other fields. The worker cuts the
  // ruling out of it and keeps it under `here` (static/js/sw.js).
  function keepCopy(here) {
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (!worker) { return; }
    var copy = document.documentElement.cloneNode(true);
    var FIELDS = "input, select, textarea, option";
    var copied = copy.querySelectorAll(FIELDS);
    document.querySelectorAll(FIELDS).forEach(function (field, index) {
      var into = copied[index];
      if (field.tagName === "OPTION") { into.toggleAttribute("selected", field.selected); }
      else if (field.tagName === "TEXTAREA") { into.textContent = field.value; }
      else if (field.type === "checkbox" || field.type === "radio") {
        into.toggleAttribute("checked", field.checked);
      } else if (field.tagName === "INPUT" && field.type !== "submit" && field.type !== "button") {
        into.setAttribute("value", field.value);
      }
    });
    copy.querySelectorAll("form[aria-busy]").forEach(function (busy) {
      busy.removeAttribute("aria-busy");
    });
    worker.postMessage({ type: "checker-copy", url: here,
                         html: "<!doctype html>\n" + copy.outerHTML });
  }

  function later(button) {
    asked++;  // an answer still on its way is for an older form: it must not overwrite this one
    form.setAttribute("aria-busy", "true");
    window.clearTimeout(timer);
    timer = window.setTimeout(function () { ask(null, button); }, DELAY);
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
    touched = button;
    later(button);
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    touched = event.submitter || null;
    ask(event.submitter || null);
  });
  form.addEventListener("change", function (event) { touched = event.target; later(null); });
  form.addEventListener("input", function (event) {
    if (event.target.type !== "radio" && event.target.type !== "checkbox") {
      touched = event.target;
      later(null);
    }
  });
  // Back online: ask at once, and soon again if the network is not quite there yet.
  window.addEventListener("online", function () {
    if (failed) { retryWait = RETRY_FIRST; ask(null); }
  });
  // A page the service worker kept (static/js/sw.js) has no ruling: ask the server for one
  // at once, and again as above until it answers.
  if (document.documentElement.hasAttribute("data-copy")) { ask(null); }

  // Roving focus: one tab stop per data-rove group, left and right within it.
  var roved = {};
  form.querySelectorAll("[data-rove]").forEach(function (field) {
    var key = field.getAttribute("data-rove");
    field.tabIndex = roved[key] ? -1 : 0;
    roved[key] = true;
  });
  document.querySelectorAll("[data-rove-hint]").forEach(function (hint) { hint.hidden = false; });
  form.addEventListener("keydown", function (event) {
    var key = event.target.getAttribute && event.target.getAttribute("data-rove");
    if (!key || (event.key !== "ArrowLeft" && event.key !== "ArrowRight")) { return; }
    var group = Array.prototype.slice.call(form.querySelectorAll("[data-rove]"))
      .filter(function (field) { return field.getAttribute("data-rove") === key; });
    var next = group[group.indexOf(event.target) + (event.key === "ArrowRight" ? 1 : -1)];
    if (!next) { return; }
    event.preventDefault();
    event.target.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
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
