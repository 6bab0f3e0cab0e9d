/* ProcessPrng, as bcryptprimitives.dll exports it on Windows 10 and later.
   Go's Windows runtime needs it at start; the wine of Debian 12 does not
   have it, so .ci/windows-smoke builds this stand-in (with mingw) into the
   wine prefix. It fills the buffer from RtlGenRandom. Test scaffolding for
   running pt.exe under wine only; nothing of it ships with pt. */
#include <windows.h>
#include <ntsecapi.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG n = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!RtlGenRandom(data, n))
            return FALSE;
        data += n;
        len -= n;
    }
    return TRUE;
}
