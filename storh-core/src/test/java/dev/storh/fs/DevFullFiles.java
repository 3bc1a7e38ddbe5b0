package dev.storh.fs;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.function.Predicate;

/**
 * The local files under a root, except that appends to the chosen names open {@code /dev/full}
 * (Linux): their writes fail for real with ENOSPC, and cutting them back fails too (a device cannot
 * be truncated). Every other operation, reads and stat of those names included, reaches the real
 * files under the root. Thread-safe.
 */
public final class DevFullFiles {

    private DevFullFiles() {
    }

    /**
     * @param root the folder the names are relative to
     * @param full which names' appends go to {@code /dev/full}
     * @return the seam
     */
    public static StoreFiles at(Path root, Predicate<String> full) {
        LocalFiles local = LocalFiles.at(root);
        return (StoreFiles) Proxy.newProxyInstance(StoreFiles.class.getClassLoader(), new Class<?>[] {StoreFiles.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("append") && full.test((String) args[0])) {
                        return LocalFiles.unrooted().append("/dev/full");
                    }
                    try {
                        return method.invoke(local, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
