// Pukllay's pages: step through a game's moves without reloading (links, the slider and the
// arrow keys on the board or the move list), and follow a running game through its event
// stream.  Every control is also a plain link or form, so the pages work without this file.
"use strict";

(function () {
  function game() {
    return document.getElementById("game");
  }

  function stepUrl(step) {
    var url = new URL(window.location.href);
    url.searchParams.set("move", String(step));
    return url;
  }

  // Which control of the game's part of the page has the focus, as a selector that finds it in
  // the part that replaces it: a step link by its place in the steps' nav, a move by its step,
  // anything else by its id (every control of the part has one: the slider's Go, the board in
  // words' summary).  Null when the focus is elsewhere.
  function focused(old) {
    var el = document.activeElement;
    if (!old || !el || el === old || !old.contains(el)) {
      return null;
    }
    var nav = el.closest("nav.steps");
    if (nav) {
      var links = Array.prototype.slice.call(nav.querySelectorAll("a"));
      return "nav.steps a:nth-of-type(" + (links.indexOf(el) + 1) + ")";
    }
    if (el.closest("ol.moves") && el.dataset.step !== undefined) {
      return "ol.moves a[data-step='" + el.dataset.step + "']";
    }
    return el.id ? "#" + el.id : null;
  }

  // The step link nearest ``link`` (one place along the steps' nav, then two...; the next before
  // the previous) that is not disabled; the board's part of the page when every one is.
  function nearestStep(link) {
    var nav = link.closest("nav.steps");
    var links = Array.prototype.slice.call(nav.querySelectorAll("a"));
    var at = links.indexOf(link);
    for (var d = 1; d < links.length; d += 1) {
      var near = [links[at + d], links[at - d]];
      for (var i = 0; i < near.length; i += 1) {
        if (near[i] && near[i].getAttribute("aria-disabled") !== "true") {
          return near[i];
        }
      }
    }
    return document.getElementById("board-part");
  }

  function show(url, push) {
    return fetch(url.toString(), { headers: { Accept: "text/html" } })
      .then(function (reply) {
        if (!reply.ok) {
          throw new Error("status " + reply.status);
        }
        return reply.text();
      })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("game");
        var old = game();
        if (!fresh || !old) {
          window.location.assign(url.toString());
          return;
        }
        var keep = focused(old);
        // A part the reader opened (the board in words) stays open in the part that replaces it.
        old.querySelectorAll("details[open][id]").forEach(function (part) {
          var again = fresh.querySelector("#" + part.id);
          if (again) {
            again.open = true;
          }
        });
        old.replaceWith(fresh);
        // The focus stays on the control that had it (a keyboard's place in the page is kept), or,
        // when that step link now leads nowhere (Back at the start), goes to the nearest one that
        // still does.
        var again = keep && fresh.querySelector(keep);
        if (again && again.getAttribute("aria-disabled") === "true") {
          again = nearestStep(again);
        }
        if (again) {
          again.focus();
        }
        // The language links lead to the move now shown.
        var langs = doc.querySelector("ul.langs");
        var oldLangs = document.querySelector("ul.langs");
        if (langs && oldLangs) {
          oldLangs.replaceWith(langs);
        }
        if (push) {
          window.history.pushState(null, "", url.toString());
        }
        announce(fresh);
        wire();
      })
      .catch(function () {
        window.location.assign(url.toString());
      });
  }

  // A screen reader is told which step the page now shows, and its move ("After move 5 of 40:
  // Cusi plays ..."), in the live region beside the game's part (which is replaced, so cannot
  // hold one itself): a step taken with the arrow keys moves no focus, and a move followed
  // from the event stream neither.
  function announce(fresh) {
    var said = document.getElementById("announce");
    var label = fresh.querySelector("#step-label");
    if (!said || !label) {
      return;
    }
    var text = label.textContent.trim();
    var move = fresh.querySelector("ol.moves a[aria-current]");
    if (move && Number(fresh.dataset.step) > 0) {
      text += ": " + move.textContent.trim();
    }
    said.textContent = text;
  }

  function go(step) {
    var g = game();
    if (!g) {
      return;
    }
    var shown = Number(g.dataset.shown);
    var target = Math.max(0, Math.min(shown, step));
    if (target === Number(g.dataset.step)) {
      return;
    }
    show(stepUrl(target), true);
  }

  function wire() {
    var g = game();
    if (!g) {
      return;
    }
    g.querySelectorAll("a[data-step]").forEach(function (link) {
      link.addEventListener("click", function (event) {
        if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) {
          return;
        }
        event.preventDefault();
        go(Number(link.dataset.step));
      });
    });
    var slider = document.getElementById("move");
    var out = document.getElementById("move-out");
    if (slider) {
      slider.addEventListener("input", function () {
        if (out) {
          out.textContent = slider.value;
        }
      });
      slider.addEventListener("change", function () {
        go(Number(slider.value));
      });
    }
    follow();
  }

  // Whether the focus is in the move viewer: the board's part of the page (the board, its step
  // links) or the move list.  Its keys step through the moves there only: elsewhere, Home, End
  // and the arrows stay the page's own (End scrolls to its bottom), as a keyboard or a screen
  // reader expects.
  function inViewer(el) {
    return Boolean(el && el.closest && el.closest("#board-part, ol.moves"));
  }

  document.addEventListener("keydown", function (event) {
    var g = game();
    if (!g || event.altKey || event.ctrlKey || event.metaKey || !inViewer(event.target)) {
      return;
    }
    var tag = (event.target && event.target.tagName) || "";
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") {
      return;
    }
    var step = Number(g.dataset.step);
    var shown = Number(g.dataset.shown);
    var moves = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: shown };
    if (Object.prototype.hasOwnProperty.call(moves, event.key)) {
      event.preventDefault();
      go(moves[event.key]);
    }
  });

  window.addEventListener("popstate", function () {
    show(new URL(window.location.href), false);
  });

  var source = null;

  // Where an event stream's address leads, without the point in the game it was opened at.
  function streamOf(url) {
    return new URL(url, window.location.href).pathname;
  }

  // One event stream while the page shows a running game; closed once it shows an ended one.
  // The stream is opened from the point the page was written at (its address says which), so a
  // move that lands before it opens is told too; once open, it tells each change as it comes.
  function follow() {
    var g = game();
    var url = g ? g.dataset.events : "";
    if (source && (!url || streamOf(source.url) !== streamOf(url))) {
      source.close();
      source = null;
    }
    if (!url || source || !window.EventSource) {
      return;
    }
    source = new EventSource(url);
    source.addEventListener("move", function () {
      var now = game();
      var atLatest = !now || now.dataset.step === now.dataset.shown;
      var target = new URL(window.location.href);
      if (atLatest) {
        target.searchParams.delete("move");
      }
      show(target, false);
    });
  }

  document.addEventListener("DOMContentLoaded", wire);
})();
