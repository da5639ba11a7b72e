#pragma once
// A small SVG chart: one panel per case, time against array size on log-log
// axes, one line per method.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace compare {

struct Point {
  std::string case_name, method;
  double elements, seconds;
};

inline void write_svg(const std::string& file, const std::string& title, const std::vector<Point>& points) {
  std::vector<std::string> cases, methods;
  for (const Point& p : points) {
    if (std::find(cases.begin(), cases.end(), p.case_name) == cases.end()) cases.push_back(p.case_name);
    if (std::find(methods.begin(), methods.end(), p.method) == methods.end()) methods.push_back(p.method);
  }
  const char* colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};
  const int cols = 3, pw = 300, ph = 210, top = 60;
  const int rows = int((cases.size() + cols - 1) / cols);
  std::ofstream out(file);
  out << "<svg xmlns='http://www.w3.org/2000/svg' width='" << cols * pw + 20 << "' height='"
      << top + rows * ph + 20 << "' font-family='sans-serif' font-size='11'>\n"
      << "<rect width='100%' height='100%' fill='white'/>\n<text x='10' y='20' font-size='15'>" << title
      << "</text>\n";
  for (std::size_t m = 0; m < methods.size(); ++m)
    out << "<rect x='" << 10 + 150 * m << "' y='32' width='12' height='12' fill='" << colors[m % 6]
        << "'/><text x='" << 26 + 150 * m << "' y='42'>" << methods[m] << "</text>\n";
  for (std::size_t c = 0; c < cases.size(); ++c) {
    const int x0 = 10 + int(c % cols) * pw + 45, y0 = top + int(c / cols) * ph + 20, w = pw - 65, h = ph - 60;
    double xmin = 1e300, xmax = 0, ymin = 1e300, ymax = 0;
    for (const Point& p : points)
      if (p.case_name == cases[c]) {
        xmin = std::min(xmin, p.elements), xmax = std::max(xmax, p.elements);
        ymin = std::min(ymin, p.seconds), ymax = std::max(ymax, p.seconds);
      }
    const double lx0 = std::log10(xmin), lx1 = std::max(std::log10(xmax), lx0 + 1e-9);
    const double ly0 = std::floor(std::log10(ymin)), ly1 = std::ceil(std::log10(ymax) + 1e-9);
    const auto px = [&](double v) { return x0 + w * (std::log10(v) - lx0) / (lx1 - lx0); };
    const auto py = [&](double v) { return y0 + h - h * (std::log10(v) - ly0) / (ly1 - ly0); };
    out << "<text x='" << x0 << "' y='" << y0 - 6 << "'>" << cases[c] << "</text>\n"
        << "<rect x='" << x0 << "' y='" << y0 << "' width='" << w << "' height='" << h
        << "' fill='none' stroke='#999'/>\n";
    for (double e = ly0; e <= ly1; e += 1) {
      char label[32];
      const double v = std::pow(10, e);
      std::snprintf(label, sizeof label, v >= 1 ? "%g s" : "%g ms", v >= 1 ? v : v * 1e3);
      out << "<text x='" << x0 - 4 << "' y='" << py(v) + 4 << "' text-anchor='end'>" << label << "</text>\n";
    }
    std::map<double, bool> ticks;
    for (const Point& p : points)
      if (p.case_name == cases[c] && !ticks[p.elements]) {
        ticks[p.elements] = true;
        out << "<text x='" << px(p.elements) << "' y='" << y0 + h + 14 << "' text-anchor='middle'>"
            << (p.elements >= 1e6 ? std::to_string(int(p.elements / 1048576)) + "M"
                                  : std::to_string(int(p.elements)))
            << "</text>\n";
      }
    for (std::size_t m = 0; m < methods.size(); ++m) {
      std::string line;
      for (const Point& p : points)
        if (p.case_name == cases[c] && p.method == methods[m])
          line += std::to_string(px(p.elements)) + "," + std::to_string(py(p.seconds)) + " ";
      if (line.empty()) continue;
      out << "<polyline fill='none' stroke-width='2' stroke='" << colors[m % 6] << "' points='" << line
          << "'/>\n";
    }
    out << "<text x='" << x0 + w / 2 << "' y='" << y0 + h + 28 << "' text-anchor='middle'>elements</text>\n";
  }
  out << "</svg>\n";
}

}  // namespace compare
