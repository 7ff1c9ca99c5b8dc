// The results database's schema as an ordered list of steps: step i takes a
// database from user_version i to i + 1, so a file written by any older
// perfci is brought forward on open, one step at a time, in the
// transaction that sets the new user_version. Never edit a released step:
// a change to the schema is a new step at the end (and kSchemaVersion + 1).
#pragma once

#include <vector>

namespace perfci::history {

struct Migration {
  int to_version = 0;
  const char* sql = "";  // statements that take to_version - 1 to to_version
};

// In order; migrations()[i].to_version == i + 1, and the last is kSchemaVersion.
const std::vector<Migration>& migrations();

}  // namespace perfci::history
