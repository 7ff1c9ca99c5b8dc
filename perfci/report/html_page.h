// What every perfci HTML page shares: the document head with the one style
// sheet, and the tail with the small inline script that checks the page
// (counts the drawn plots into <body data-plots-drawn> and any script
// error into data-errors), so a headless browser can verify a page; the
// plots do not depend on it.
#pragma once

#include <string>

namespace perfci::report {

// "<!DOCTYPE html>...<body>\n" with `title` escaped.
std::string html_page_head(const std::string& title);
// The checking script and "</body></html>".
std::string html_page_tail();

}  // namespace perfci::report
