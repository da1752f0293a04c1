// can_parse.cpp is the C++ half of benchmarks/ada.sh: it times ada's
// can_parse and parse (ada::url_aggregator) over every line of the URL
// lists it is given, by the process's CPU clock, as ../main.go times
// rfc1738.Check, Valid and Parse. A timed pass goes over the list as many
// times as make at least 500,000 URLs. Each round prints, for each file
// and function, "ada FUNC FILE NS-PER-URL ACCEPTED".
//
//	g++ -O3 -std=c++20 -I ADA/singleheader can_parse.cpp ADA/singleheader/ada.cpp
//	./a.out ROUNDS FILE...
#include "ada.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

static long long cpu() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

template <class F>
static int pass(const std::vector<std::string> &lines, F f) {
  int n = 0;
  for (const auto &s : lines) n += f(s) ? 1 : 0;
  return n;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s ROUNDS FILE...\n", argv[0]);
    return 2;
  }
  int rounds = std::atoi(argv[1]);
  for (int a = 2; a < argc; a++) {
    std::ifstream in(argv[a]);
    if (!in) {
      std::perror(argv[a]);
      return 1;
    }
    std::vector<std::string> lines;
    for (std::string s; std::getline(in, s);) lines.push_back(s);
    std::string base = argv[a];
    base = base.substr(base.find_last_of('/') + 1);
    size_t k = lines.empty() ? 1 : (500000 + lines.size() - 1) / lines.size();
    auto can = [](const std::string &s) { return ada::can_parse(s); };
    auto parse = [](const std::string &s) { return bool(ada::parse<ada::url_aggregator>(s)); };
    for (int f = 0; f < 2; f++) {
      const char *name = f == 0 ? "can_parse" : "parse";
      f == 0 ? pass(lines, can) : pass(lines, parse);  // warm up
      for (int r = 0; r < rounds; r++) {
        int n = 0;
        long long t0 = cpu();
        for (size_t i = 0; i < k; i++) n = f == 0 ? pass(lines, can) : pass(lines, parse);
        double ns = double(cpu() - t0) / double(k * lines.size());
        std::printf("ada %s %s %.1f %d\n", name, base.c_str(), ns, n);
      }
    }
  }
  return 0;
}
