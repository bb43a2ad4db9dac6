# cmake -DDEPFILE=<gch>.d -DWORKDIR=<dir> -DOUT=<gch>.sum -P PchChecksum.cmake
#
# Writes a checksum of the contents of every file a precompiled header was made from,
# in the order its depfile lists them (paths relative to WORKDIR, where it was compiled).
# ccache (pch_external_checksum) hashes this file instead of the .gch itself: GCC's .gch
# differs from one build folder to the next even when made from the same headers, so
# hashing it would keep objects compiled with it from being shared between clones. Each
# object's own command line, hashed too, carries the flags the header was compiled with.
if(NOT EXISTS "${DEPFILE}")
  # No list of headers: no checksum, and ccache hashes the .gch itself.
  file(REMOVE "${OUT}")
  return()
endif()
file(READ "${DEPFILE}" deps)
string(REPLACE "\\\n" " " deps "${deps}")
string(REGEX REPLACE "^[^\n]*\\.gch:" "" deps "${deps}")
separate_arguments(files UNIX_COMMAND "${deps}")
set(sums "")
foreach(f IN LISTS files)
  if(NOT IS_ABSOLUTE "${f}")
    set(f "${WORKDIR}/${f}")
  endif()
  file(SHA256 "${f}" sum)
  string(APPEND sums "${sum}\n")
endforeach()
string(SHA256 total "${sums}")
file(WRITE "${OUT}.new" "${total}\n")
file(RENAME "${OUT}.new" "${OUT}")
