package dev.storh.log;

/** When a log append is reported done. */
public enum Durability {
    /** After the line is fsynced (group-committed with concurrent appends): the default. */
    FSYNC,
    /**
     * After the line is written to the operating system, without fsync: a process crash loses nothing,
     * a power loss may lose recent appends (never tears older ones). For tests and bulk loads.
     */
    NO_FSYNC
}
