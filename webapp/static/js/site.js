/* Progressive enhancement only: the site works without this file.
   - The language links keep the rule you are reading (the URL fragment).
   - The header menus (<details>) close on Escape, on a click elsewhere or on one of their
     links, and when another opens; the search menu puts the cursor in its field.
   - The contents beside a rules page mark the section in view.
   - A link into a folded part of the page opens it.
   - The service worker keeps the pages you read for reading offline (static/js/sw.js). */
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a[data-keep-hash]") : null;
    if (!link || !window.location.hash) { return; }
    var url = new URL(link.href, window.location.href);
    url.hash = window.location.hash;
    link.href = url.toString();
  });

  var menus = document.querySelectorAll("details.menu");
  function closeMenus(except) {
    menus.forEach(function (menu) { if (menu !== except) { menu.open = false; } });
  }
  menus.forEach(function (menu) {
    menu.addEventListener("toggle", function () {
      if (!menu.open) { return; }
      closeMenus(menu);
      var field = menu.querySelector("input[type=search]");
      if (field) { field.focus(); }
    });
  });
  document.addEventListener("click", function (event) {
    var inside = event.target.closest && event.target.closest("details.menu");
    // a click outside, or on a link inside (the contents: the page goes there), closes
    if (!inside || event.target.closest(".menu__panel a")) { closeMenus(null); }
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") { return; }
    var open = document.querySelector("details.menu[open]");
    if (!open) { return; }
    open.open = false;
    open.querySelector("summary").focus();
  });

  // Folded parts of a page (the rules page's settings, the Koi-Koi card chart) open for a
  // link into them, as Chromium does on its own, and for printing (print CSS does it too).
  function openTarget() {
    var id = window.location.hash.slice(1);
    var target = id && document.getElementById(decodeURIComponent(id));
    if (!target) { return; }
    var fold = target.closest("details:not(.menu)");
    if (!fold || fold.open) { return; }
    for (; fold; fold = fold.parentElement.closest("details:not(.menu)")) { fold.open = true; }
    target.scrollIntoView();
  }
  window.addEventListener("hashchange", openTarget);
  document.addEventListener("DOMContentLoaded", openTarget);
  window.addEventListener("beforeprint", function () {
    document.querySelectorAll("details.figure-fold").forEach(function (fold) { fold.open = true; });
  });

  // After the page has loaded: neither competes with the first paint.
  window.addEventListener("load", function () { markSectionInView(); register(); });

  function markSectionInView() {
    var toc = document.getElementById("toc");
    if (!toc || !window.IntersectionObserver) { return; }
    var links = {};
    toc.querySelectorAll(".toc__sections > li > a").forEach(function (link) {
      links[link.getAttribute("href").slice(1)] = link;
    });
    var observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        var link = links[entry.target.id];
        if (!link || !entry.isIntersecting) { return; }
        toc.querySelectorAll("a[aria-current]").forEach(function (other) {
          other.removeAttribute("aria-current");
        });
        link.setAttribute("aria-current", "location");
        // beside the rules the contents scroll on their own: keep the current one in them
        if (getComputedStyle(toc).position === "sticky"
            && (link.offsetTop < toc.scrollTop || link.offsetTop > toc.scrollTop + toc.clientHeight - 48)) {
          toc.scrollTop = link.offsetTop - 48;
        }
      });
    }, { rootMargin: "0px 0px -70% 0px" });
    Object.keys(links).forEach(function (id) {
      var section = document.getElementById(id);
      if (section) { observer.observe(section); }
    });
  }

  var script = document.currentScript;
  var worker = script && script.getAttribute("data-service-worker");
  function register() {
    if (!worker || !("serviceWorker" in navigator)) { return; }
    navigator.serviceWorker.register(worker).catch(function () { /* the site works without */ });
  }
})();
