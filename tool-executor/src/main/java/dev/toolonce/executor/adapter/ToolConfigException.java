package dev.toolonce.executor.adapter;

/** A tool's configuration cannot work; the message names the tool and the field to change. */
public final class ToolConfigException extends IllegalStateException {
    public ToolConfigException(String tool, String field, String why) {
        super("tool '" + tool + "': toolonce.executor.tools." + tool + "." + field + " " + why);
    }
}
