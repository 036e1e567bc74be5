/* Progressive enhancement only: the site works without this file.
   The language switcher keeps the rule you are reading (the URL fragment). */
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a[data-keep-hash]") : null;
    if (!link || !window.location.hash) { return; }
    var url = new URL(link.href, window.location.href);
    url.hash = window.location.hash;
    link.href = url.toString();
  });
})();
