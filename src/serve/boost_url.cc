// Boost.URL's compiled part, built into kedb so only Boost's headers are
// needed (Debian ships the library as a separate package).
#include <boost/url/src.hpp>
