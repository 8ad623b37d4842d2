document.querySelectorAll("table.sortable thead th").forEach(function (th) {
  th.addEventListener("click", function () {
    var table = th.closest("table"), body = table.tBodies[0], i = th.cellIndex;
    var asc = th.getAttribute("aria-sort") !== "ascending";
    table.querySelectorAll("thead th").forEach(function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", asc ? "ascending" : "descending");
    function key(tr) { var t = tr.cells[i].textContent.trim(), x = parseFloat(t); return isNaN(x) ? t : x; }
    Array.from(body.rows).sort(function (a, b) {
      var x = key(a), y = key(b);
      var c = typeof x === typeof y ? (x < y ? -1 : x > y ? 1 : 0) : (typeof x === "number" ? -1 : 1);
      return asc ? c : -c;
    }).forEach(function (tr) { body.appendChild(tr); });
  });
});
document.documentElement.setAttribute("data-sortable", document.querySelectorAll("table.sortable").length);
