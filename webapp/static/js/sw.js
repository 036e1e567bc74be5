/* Shinpan's service worker: the pages a person has read open again without a network.

   Served as /sw.js (webapp/pages/site.py), so its scope is the whole site, from 'self'.
   - Pages (a navigation to a rules page, the home page, a search, the developer page):
     network first, so an answer is never older than the server's; a copy of each 200 is
     kept, and shown only when the network cannot be reached.
   - Static files with content-hashed names (never changed): from the copy once fetched.
   - The scoring checker and the API are never answered from a copy, not even the
     browser's HTTP cache: a ruling is always the referee's answer of the moment. What is
     kept of a checker page is its form: each checker page the server answers is kept
     under the address the page shows, with what lies between `<!--ruling-->` and
     `<!--/ruling-->` cut out and the notes marked `data-copy-show` and `data-live-offline`
     shown. A navigation's answer is a whole page, kept so. A tap (static/js/live.js asks
     with `Shinpan-Live: regions`) is answered with the page's live parts alone: the page
     itself then hands over its copy (a message: the page as it now is, with what is typed
     in every field), kept the same way under the page's address, so the copy holds the
     state after the last tap. Opened without a network, that copy shows what was entered
     and says the ruling comes with the connection; live.js then asks the server again
     (the whole page, once it answers).
   - A page that was never read: the offline page in the page's language, kept from the
     first page read in that language; else the browser's own offline page.
   - A new version of this file (a deploy that changes it) makes new copies: its
     activation fetches every page and checker form the older version kept, and drops the
     older copies. */
"use strict";
var PAGES = "shinpan-pages-v1";
var FILES = "shinpan-files-v1";
var MAX_PAGES = 80;
var MAX_FILES = 24;
var FORMS = "shinpan-checker-v1";  // checker pages without their ruling
var MAX_FORMS = 40;
var ROOT = new URL(self.registration.scope).pathname;  // "/" or the site's mount point
var HASHED = /^static\/.+\.[0-9a-f]{12}\.[A-Za-z0-9]+$/;  // webapp/http/caching.py's names

self.addEventListener("install", function () { self.skipWaiting(); });

// On activation: drop the copies of older versions, take over the open pages, and keep
// those pages too (the first page read came before there was a worker to keep it). A
// deploy's worker renews every copy an older one made (see refresh).
self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    var current = [PAGES, FILES, FORMS];
    return Promise.all(names.filter(function (name) {
      return name.indexOf("shinpan-") === 0 && current.indexOf(name) < 0;
    }).map(function (name) { return refresh(name).then(function () { return caches.delete(name); }); }));
  }).then(function () { return Promise.all([refresh(PAGES), refresh(FORMS)]); })
    .then(function () { return self.clients.claim(); })
    .then(function () { return self.clients.matchAll({ type: "window" }); })
    .then(function (windows) { return Promise.all(windows.map(keepOpenPage)); }));
});

// Every page and checker form kept in the cache `name`, fetched again and kept as this
// version keeps it. A page the server no longer has (404) is dropped; one it cannot answer
// now keeps the copy it had.
function refresh(name) {
  var current = name === PAGES || name === FORMS;
  return caches.open(name).then(function (cache) {
    return cache.keys().then(function (keys) {
      return Promise.all(keys.map(function (key) {
        var path = new URL(key.url).pathname.slice(ROOT.length);
        if (HASHED.test(path)) { return null; }
        var into = isChecker(path) ? FORMS : PAGES;
        var kept = function () {
          return current ? null : cache.match(key).then(function (old) {
            return old ? keep(into, into === FORMS ? MAX_FORMS : MAX_PAGES, key.url, old) : null;
          });
        };
        return fetch(key.url, { cache: "no-cache" }).then(function (response) {
          if (response.status === 404) { return cache.delete(key); }
          if (!response.ok || response.type !== "basic") { return kept(); }
          return into === FORMS ? keepForm(response) : keep(PAGES, MAX_PAGES, key.url, response);
        }, kept);
      }));
    });
  });
}

function isChecker(path) { return /^[a-z]{2}\/[a-z0-9-]+\/score$/.test(path); }

function isPage(path) { return path.indexOf("api/") !== 0 && !/(^|\/)score(\/|$)/.test(path); }

function keepOpenPage(client) {
  var url = new URL(client.url);
  url.hash = "";
  var path = url.pathname.slice(ROOT.length);
  if (url.origin !== self.location.origin || url.pathname.indexOf(ROOT) !== 0) { return null; }
  var offline = keepOfflinePage(language(path));
  if (!isPage(path) && !isChecker(path)) { return offline; }
  return Promise.all([offline, fetch(url.href, { cache: "no-cache" }).then(function (response) {
    if (!response.ok || response.type !== "basic") { return null; }
    var assets = response.clone().text().then(function (html) { return keepFiles(html, url); });
    return Promise.all([assets,
      isChecker(path) ? keepForm(response) : keep(PAGES, MAX_PAGES, url.href, response)]);
  }).catch(function () { return null; })]);
}

// The style sheets and scripts a page links to (content-hashed names), kept with it: the
// page that installed this worker was loaded before it could keep them.
function keepFiles(html, base) {
  var found = /\s(?:src|href)="([^"]+)"/g;
  var urls = [];
  var match;
  while ((match = found.exec(html)) !== null) {
    var url = new URL(match[1].replace(/&amp;/g, "&"), base);
    if (url.origin === self.location.origin && url.pathname.indexOf(ROOT) === 0
        && HASHED.test(url.pathname.slice(ROOT.length)) && urls.indexOf(url.href) < 0) {
      urls.push(url.href);
    }
  }
  return Promise.all(urls.map(function (href) {
    return caches.match(href).then(function (kept) {
      return kept || fetch(href).then(function (response) {
        return response.ok ? keep(FILES, MAX_FILES, href, response) : null;
      });
    }).catch(function () { return null; });
  }));
}

// A checker page as the server answered it, kept as its form: a whole page (a navigation,
// or a live update the server's page cache answered whole). A live update's answer is the
// page's live parts alone: the page hands over its copy itself (see the "message" handler).
function keepForm(response) {
  if ((response.headers.get("Content-Type") || "").indexOf("text/html") !== 0) { return null; }
  var url = response.url;
  return response.text().then(function (html) {
    return /<html\b/.test(html) ? keepCopy(url, html) : null;
  });
}

// The copy a checker page made of itself after a tap (static/js/live.js): kept like a
// whole page, at an address of the same checker as the page that sends it.
self.addEventListener("message", function (event) {
  var data = event.data || {};
  var source = event.source && event.source.url ? new URL(event.source.url) : null;
  if (data.type !== "checker-copy" || typeof data.html !== "string" || !source) { return; }
  var url = new URL(String(data.url), source);
  var path = url.pathname.slice(ROOT.length);
  if (url.origin !== self.location.origin || url.pathname.indexOf(ROOT) !== 0
      || !isChecker(path) || url.pathname !== source.pathname || !/<html\b/.test(data.html)) {
    return;
  }
  event.waitUntil(keepCopy(url.href, data.html));
});

// A checker page kept as its form: the ruling cut out, the notes for a copy shown, under
// the address the page itself gives (`data-live-address`, where live.js puts the tidy
// address of a form it sent), else `url`. A page made from a kept one is marked once.
function keepCopy(url, html) {
  var own = /\sdata-live-address="([^"]*)"/.exec(html);
  var key = new URL(own ? own[1].replace(/&amp;/g, "&") : url, url);
  key.hash = "";
  // (a page's own copy is written as a browser writes a page: `hidden=""`, and an
  // attribute set again comes last in its tag)
  var form = html.replace(/<!--ruling-->[\s\S]*?<!--\/ruling-->/g, "")
    .replace(/<[^>]*\sdata-(?:copy-show|live-offline)\b[^>]*>/g, function (tag) {
      return tag.replace(/\shidden(?:="")?(?=[\s>])/, "");
    })
    .replace(/<html\b(?! data-copy)/, "<html data-copy");
  return keep(FORMS, MAX_FORMS, key.href, new Response(form, {
    headers: { "Content-Type": "text/html; charset=utf-8" } }));
}

function language(path) {
  var match = /^([a-z]{2})\//.exec(path);
  return match ? match[1] : null;
}

function trim(name, most) {
  return caches.open(name).then(function (cache) {
    return cache.keys().then(function (keys) {
      return Promise.all(keys.slice(0, Math.max(0, keys.length - most)).map(function (key) {
        return cache.delete(key);
      }));
    });
  });
}

function keep(name, most, key, response) {
  return caches.open(name)
    .then(function (cache) { return cache.put(key, response); })
    .then(function () { return trim(name, most); });
}

function offlineUrl(lang) { return ROOT + lang + "/offline"; }

function keepOfflinePage(lang) {
  if (!lang) { return Promise.resolve(null); }
  var url = offlineUrl(lang);
  return caches.match(url).then(function (kept) {
    if (kept) { return null; }
    return fetch(url).then(function (response) {
      return response.ok ? keep(PAGES, MAX_PAGES, url, response) : null;
    });
  }).catch(function () { return null; });
}

function offlinePage(path) {
  var langs = [language(path)].concat((self.navigator.languages || []).map(function (tag) {
    return tag.slice(0, 2).toLowerCase();
  }), "en");
  return langs.filter(Boolean).reduce(function (found, lang) {
    return found.then(function (page) { return page || caches.match(offlineUrl(lang)); });
  }, Promise.resolve(null)).then(function (page) { return page || Response.error(); });
}

function networkFirst(event, path) {
  var request = event.request;
  return fetch(request).then(function (response) {
    if (response.ok && response.type === "basic") {
      event.waitUntil(keep(PAGES, MAX_PAGES, request.url, response.clone()));
    }
    event.waitUntil(keepOfflinePage(language(path)));
    return response;
  }).catch(function () {
    return caches.match(request.url, { ignoreVary: true }).then(function (kept) {
      return kept || offlinePage(path);
    });
  });
}

// A checker page or the checker's own request: always the server's answer of the moment,
// past the browser's HTTP cache too (revalidated: a 304 when nothing changed). Its form is
// kept; without a network a navigation opens that form (never its ruling).
function askTheReferee(event, path) {
  var request = event.request;
  var navigate = request.mode === "navigate";
  var fresh = new Request(request.url, { cache: "no-cache", credentials: "same-origin",
    headers: request.headers, redirect: navigate ? "manual" : "follow" });
  return fetch(fresh).then(function (response) {
    if (navigate) { event.waitUntil(keepOfflinePage(language(path))); }
    if (response.ok && response.type === "basic" && isChecker(path)) {
      event.waitUntil(keepForm(response.clone()).catch(function () { return null; }));
    }
    return response;
  }, function () {
    if (!navigate) { return Response.error(); }
    var url = new URL(request.url);
    url.hash = "";
    return caches.open(FORMS).then(function (cache) { return cache.match(url.href); })
      .then(function (form) { return form || offlinePage(path); });
  });
}

function fromCopy(event) {
  return caches.match(event.request).then(function (kept) {
    return kept || fetch(event.request).then(function (response) {
      if (response.ok) { event.waitUntil(keep(FILES, MAX_FILES, event.request, response.clone())); }
      return response;
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin
      || url.pathname.indexOf(ROOT) !== 0) { return; }
  var path = url.pathname.slice(ROOT.length);  // "en/hanamikoji/"
  if (path.indexOf("api/") === 0) { return; }  // never answered here
  if (HASHED.test(path)) { event.respondWith(fromCopy(event)); return; }
  if (!isPage(path)) { event.respondWith(askTheReferee(event, path)); return; }
  if (request.mode === "navigate") { event.respondWith(networkFirst(event, path)); }
});
