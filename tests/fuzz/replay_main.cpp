// Replays the fuzz target without libFuzzer, for every build and ctest: each file of the seed
// corpus, then a fixed set of mutations of each (the same every run), so what the fuzzer
// found stays fixed and the parsers meet a few thousand malformed specs on every test run.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

constexpr int kMutationsPerSeed = 30;

// Fragments the notation is made of, so mutations stay near the grammar.
const char* const kTokens[] = {
    "[",     "]",        "{",       "}",    "_",    "_XY", ",",      ", ",  " * ",   "->", " -> ",
    "{U_X}", "U_",       "=",       "=4",   ":",    "x",   "|",      "X",   "Y",     "Z",  "W",
    "I",     "J",        "K",       "A",    "B",    "C",   "0",      "2.5", "99999", " ",  "'",
    "\"",    "\xce\xa3", "tpu-v4p", "h100", "fp32", "yes", "I=4096", "J=3"};

class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed * 2654435761u + 1) {}
  std::size_t below(std::size_t n) {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    return n == 0 ? 0 : static_cast<std::size_t>(state_ % n);
  }

 private:
  std::uint64_t state_;
};

std::string mutate(std::string s, Random& r) {
  const int edits = 1 + static_cast<int>(r.below(4));
  for (int e = 0; e < edits; ++e) {
    const std::size_t at = r.below(s.size() + 1);
    switch (r.below(5)) {
      case 0:  // insert a token
        s.insert(at, kTokens[r.below(std::size(kTokens))]);
        break;
      case 1:  // delete a run
        if (at < s.size()) s.erase(at, 1 + r.below(3));
        break;
      case 2:  // replace a byte with any byte
        if (at < s.size()) s[at] = static_cast<char>(r.below(256));
        break;
      case 3: {  // duplicate a run
        if (at < s.size()) s.insert(at, s.substr(at, 1 + r.below(8)));
        break;
      }
      default:  // swap two bytes
        if (s.size() > 1) std::swap(s[r.below(s.size())], s[r.below(s.size())]);
    }
  }
  return s;
}

void run(const std::string& input) {
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::filesystem::path> files;
  for (int i = 1; i < argc; ++i) {
    std::filesystem::path p(argv[i]);
    if (std::filesystem::is_directory(p)) {
      for (const auto& entry : std::filesystem::directory_iterator(p)) {
        if (entry.is_regular_file()) files.push_back(entry.path());
      }
    } else {
      files.push_back(p);
    }
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::cerr << "usage: sharding_fuzz_replay CORPUS_DIR_OR_FILE...\n";
    return 2;
  }
  std::size_t runs = 0;
  for (std::size_t f = 0; f < files.size(); ++f) {
    std::ifstream in(files[f], std::ios::binary);
    const std::string seed((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    run(seed);
    Random r(f + 1);
    for (int m = 0; m < kMutationsPerSeed; ++m) run(mutate(seed, r));
    runs += 1 + kMutationsPerSeed;
  }
  std::cout << "replayed " << files.size() << " seeds and " << runs - files.size()
            << " mutations\n";
  return 0;
}
