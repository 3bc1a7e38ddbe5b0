package dev.storh.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads the engine argument: {@code doc}, {@code log} or {@code queue}, as the original (lowercase). */
final class EngineConverter implements ITypeConverter<Engine> {

    @Override
    public Engine convert(String value) {
        try {
            return Engine.fromWord(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
