// HostDeviceMemory: the host backend's memory limit (KEXP_HOST_DEVICE_MEMORY) set for the
// life of a test, and the value before restored after it.
#pragma once

#include <cstdlib>
#include <optional>
#include <string>

namespace kexp::test {

class HostDeviceMemory {
 public:
  explicit HostDeviceMemory(double bytes) {
    if (const char* before = std::getenv(kName)) before_ = before;
    setenv(kName, std::to_string(static_cast<long long>(bytes)).c_str(), 1);
  }
  ~HostDeviceMemory() {
    if (before_) {
      setenv(kName, before_->c_str(), 1);
    } else {
      unsetenv(kName);
    }
  }
  HostDeviceMemory(const HostDeviceMemory&) = delete;
  HostDeviceMemory& operator=(const HostDeviceMemory&) = delete;

 private:
  static constexpr const char* kName = "KEXP_HOST_DEVICE_MEMORY";
  std::optional<std::string> before_;
};

}  // namespace kexp::test
