// Injected into a copy of a report's index.html by experiments/tests/summary_browser.rs:
// once the page has loaded, measures the summary screen's elements and every element that
// widens the page, and writes the result as JSON into <pre id="probe-result">, which
// `chromium --headless --dump-dom` prints with the rest of the DOM.
window.addEventListener("load", function () {
  var width = document.documentElement.clientWidth;
  var out = { viewport: [width, window.innerHeight], boxes: {}, overflowing: [] };
  out.scroll_width = document.documentElement.scrollWidth;
  ["run-header", "summary", "verdict", "leaderboard", "summary-figure"].forEach(function (id) {
    var element = document.getElementById(id);
    if (element) {
      var box = element.getBoundingClientRect();
      out.boxes[id] = [box.left, box.top, box.right, box.bottom];
    }
  });
  // An element wider than the page counts unless an ancestor scrolls or clips it sideways.
  function contained(element) {
    for (var up = element.parentElement; up && up !== document.body; up = up.parentElement) {
      var overflow = getComputedStyle(up).overflowX;
      if (overflow === "auto" || overflow === "scroll" || overflow === "hidden") return true;
    }
    return false;
  }
  document.querySelectorAll("body *").forEach(function (element) {
    var box = element.getBoundingClientRect();
    if (box.width > 0 && box.right > width + 1 && !contained(element)) {
      out.overflowing.push(element.tagName.toLowerCase() + (element.id ? "#" + element.id : "") +
        " right " + Math.round(box.right));
    }
  });
  var result = document.createElement("pre");
  result.id = "probe-result";
  result.textContent = JSON.stringify(out);
  document.body.appendChild(result);
});
