/* Small helps for the pages that share a table's settings; every page works without them.
   - The Copy button of a shared link (templates/share/_share.html), where the link is also
     shown as text to select and copy. It shows only where the Clipboard API is there: a
     class on <html>, so a region static/js/live.js puts in place again shows it too.
   - The Print button of the player aid (templates/aid/aid.html): shown once this runs. */
(function () {
  "use strict";
  var root = document.documentElement;
  root.classList.add("js");
  document.addEventListener("click", function (event) {
    if (event.target.closest("button[data-print]")) { window.print(); }
  });
  if (!navigator.clipboard) { return; }
  root.classList.add("can-copy");
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-share-copy]");
    if (!button) { return; }
    var link = document.getElementById(button.getAttribute("data-share-copy"));
    if (!link) { return; }
    navigator.clipboard.writeText(link.href).then(function () {
      var status = document.getElementById(button.getAttribute("data-share-status"));
      if (status) { status.textContent = status.getAttribute("data-done"); }
    });
  });
})();
