/* Shinpan's service worker: the pages a person has read open again without a network.

   Served as /sw.js (webapp/pages/site.py), so its scope is the whole site, from 'self'.
   - Pages (a navigation to a rules page, the home page, a search, the developer page):
     network first, so an answer is never older than the server's; a copy of each 200 is
     kept, and shown only when the network cannot be reached.
   - Static files with content-hashed names (never changed): from the copy once fetched.
   - The scoring checker and the API are never answered from a copy, not even the
     browser's HTTP cache: a ruling is always the referee's answer of the moment. Without
     a network the checker's own script shows its offline message, and opening a checker
     shows the offline page instead.
   - A page that was never read: the offline page in the page's language, kept from the
     first page read in that language; else the browser's own offline page. */
"use strict";
var PAGES = "shinpan-pages-v1";
var FILES = "shinpan-files-v1";
var MAX_PAGES = 80;
var MAX_FILES = 24;
var ROOT = new URL(self.registration.scope).pathname;  // "/" or the site's mount point
var HASHED = /^static\/.+\.[0-9a-f]{12}\.[A-Za-z0-9]+$/;  // webapp/http/caching.py's names

self.addEventListener("install", function () { self.skipWaiting(); });

// On activation: drop the copies of older versions, take over the open pages, and keep
// those pages too (the first page read came before there was a worker to keep it).
self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("shinpan-") === 0 && name !== PAGES && name !== FILES;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); })
    .then(function () { return self.clients.matchAll({ type: "window" }); })
    .then(function (windows) { return Promise.all(windows.map(keepOpenPage)); }));
});

function isPage(path) { return path.indexOf("api/") !== 0 && !/(^|\/)score$/.test(path); }

function keepOpenPage(client) {
  var url = new URL(client.url);
  url.hash = "";
  var path = url.pathname.slice(ROOT.length);
  if (url.origin !== self.location.origin || url.pathname.indexOf(ROOT) !== 0) { return null; }
  var offline = keepOfflinePage(language(path));
  if (!isPage(path)) { return offline; }
  return Promise.all([offline, fetch(url.href).then(function (response) {
    return response.ok && response.type === "basic" ? keep(PAGES, MAX_PAGES, url.href, response) : null;
  }).catch(function () { return null; })]);
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
// past the browser's HTTP cache too (revalidated: a 304 when nothing changed).
function askTheReferee(event, path) {
  var request = event.request;
  var fresh = new Request(request.url, { cache: "no-cache", credentials: "same-origin",
    headers: request.headers, redirect: request.mode === "navigate" ? "manual" : "follow" });
  return fetch(fresh).then(function (response) {
    if (request.mode === "navigate") { event.waitUntil(keepOfflinePage(language(path))); }
    return response;
  }, function () { return request.mode === "navigate" ? offlinePage(path) : Response.error(); });
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
