#include "perfci/version.h"

namespace perfci {

const char* tool_version() { return kToolVersion; }

}  // namespace perfci
