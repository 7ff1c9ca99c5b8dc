#include "perfci/report/html_page.h"

#include "perfci/report/svg_plot.h"  // html_escape

namespace perfci::report {
namespace {

constexpr const char* kStyle = R"(
body{font-family:system-ui,sans-serif;margin:2em;color:#1a202c;max-width:1100px}
table{border-collapse:collapse;margin:1em 0}
th,td{border:1px solid #cbd5e0;padding:4px 8px;text-align:left;vertical-align:top}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.regressed,.failed,.fail,.error,.broken{color:#c53030;font-weight:bold}
.improved,.pass{color:#2f855a;font-weight:bold}.accepted{color:#b7791f}.information{color:#718096}
.noisy{color:#b7791f}.unchanged{color:#4a5568}
svg.plot{display:block;background:#fafafa;border:1px solid #e2e8f0}
svg .tick,svg .side{font-size:11px;fill:#2d3748}
pre{background:#f7fafc;padding:8px;overflow:auto}
section.benchmark{margin:2em 0}
)";

// Counts plots whose SVG has a drawn size and at least one point, and any
// script error, into attributes a headless browser's DOM dump shows.
constexpr const char* kCheck = R"(
<script>
(function(){
  var errors = [];
  window.addEventListener('error', function(e){ errors.push(String(e.message)); });
  window.addEventListener('load', function(){
    var drawn = 0, plots = document.querySelectorAll('svg.plot');
    plots.forEach(function(svg){
      var box = svg.getBBox();
      if (box.width > 0 && box.height > 0 && svg.querySelectorAll('circle').length > 0) drawn++;
    });
    document.body.setAttribute('data-plots', String(plots.length));
    document.body.setAttribute('data-plots-drawn', String(drawn));
    document.body.setAttribute('data-errors', String(errors.length));
  });
})();
</script>
)";

}  // namespace

std::string html_page_head(const std::string& title) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
         html_escape(title) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n";
}

std::string html_page_tail() { return std::string(kCheck) + "</body>\n</html>\n"; }

}  // namespace perfci::report
