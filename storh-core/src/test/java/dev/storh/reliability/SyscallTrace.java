package dev.storh.reliability;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The system calls of an {@code strace -f -y} output file, in trace order, with calls that another
 * thread interrupted ({@code <unfinished ...>} / {@code <... resumed>}) joined back together.
 */
final class SyscallTrace {

    private static final Pattern LINE = Pattern.compile("^(\\d+)\\s+(.*)$");
    private static final Pattern RESUMED = Pattern.compile("^<\\.\\.\\. (\\w+) resumed>(.*)$");
    private static final Pattern CALL = Pattern.compile("^(\\w+)\\((.*)$");
    private static final Pattern RESULT = Pattern.compile("\\)\\s+=\\s+(-?\\d+)[^)]*$");
    private static final Pattern FD_PATH = Pattern.compile("\\d+<([^>]*)>");
    private static final Pattern QUOTED = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");

    /**
     * One call.
     *
     * @param name the syscall's name
     * @param args its arguments and result as strace printed them
     * @param start its position in the trace (where it was entered)
     * @param end where it returned
     * @param result the return value, {@code -1} for an error
     */
    record Call(String name, String args, int start, int end, long result) {

        /** @return the path of the first file-descriptor argument ({@code -y}), or null */
        String fdPath() {
            Matcher m = FD_PATH.matcher(args);
            return m.find() ? m.group(1) : null;
        }

        /** @return the quoted string arguments, in order */
        List<String> strings() {
            List<String> s = new ArrayList<>();
            Matcher m = QUOTED.matcher(args);
            while (m.find()) {
                s.add(m.group(1));
            }
            return s;
        }

        boolean ok() {
            return result >= 0;
        }

        boolean isSync() {
            return name.equals("fsync") || name.equals("fdatasync");
        }

        boolean isRename() {
            return name.startsWith("rename");
        }

        boolean isWrite() {
            return name.equals("write") || name.equals("pwrite64") || name.equals("writev");
        }

        @Override
        public String toString() {
            return name + "(" + args;
        }
    }

    private SyscallTrace() {
    }

    static List<Call> parse(List<String> lines) {
        List<Call> calls = new ArrayList<>();
        Map<String, Object[]> pending = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher l = LINE.matcher(lines.get(i));
            String tid = "0";
            String rest = lines.get(i);
            if (l.matches()) {
                tid = l.group(1);
                rest = l.group(2);
            }
            Matcher resumed = RESUMED.matcher(rest);
            if (resumed.matches()) {
                Object[] p = pending.remove(tid);
                if (p != null) {
                    String args = p[1] + resumed.group(2);
                    calls.add(new Call((String) p[0], args, (Integer) p[2], i, result(args)));
                }
                continue;
            }
            Matcher call = CALL.matcher(rest);
            if (!call.matches()) {
                continue;
            }
            String args = call.group(2);
            int cut = args.indexOf(" <unfinished ...>");
            if (cut >= 0) {
                pending.put(tid, new Object[] {call.group(1), args.substring(0, cut), i});
            } else {
                calls.add(new Call(call.group(1), args, i, i, result(args)));
            }
        }
        calls.sort(java.util.Comparator.comparingInt(Call::start));
        return calls;
    }

    private static long result(String args) {
        Matcher m = RESULT.matcher(args);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }
}
