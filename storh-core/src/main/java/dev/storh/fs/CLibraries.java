package dev.storh.fs;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Platform;

/** Loads interfaces to the Linux C library through JNA for the calls Java has no API for. */
final class CLibraries {

    private CLibraries() {
    }

    /**
     * @param <T> the interface
     * @param api the interface naming the C functions
     * @return the C library behind it, or {@code null} off Linux or when it cannot be loaded
     */
    static <T extends Library> T linux(Class<T> api) {
        if (!Platform.isLinux()) {
            return null;
        }
        try {
            return Native.load(Platform.C_LIBRARY_NAME, api);
        } catch (LinkageError e) {
            return null;
        }
    }
}
