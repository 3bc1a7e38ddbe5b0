package dev.storh.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads a duration as {@code <n>s}, {@code <n>m}, {@code <n>h}, {@code <n>d} or ISO-8601 ({@code PT90M}). */
final class DurationConverter implements ITypeConverter<Duration> {

    private static final Pattern SHORT = Pattern.compile("(\\d+)([smhd])");

    @Override
    public Duration convert(String value) {
        Matcher m = SHORT.matcher(value.toLowerCase(Locale.ROOT));
        try {
            if (m.matches()) {
                long n = Long.parseLong(m.group(1));
                return switch (m.group(2)) {
                    case "s" -> Duration.ofSeconds(n);
                    case "m" -> Duration.ofMinutes(n);
                    case "h" -> Duration.ofHours(n);
                    default -> Duration.ofDays(n);
                };
            }
            Duration d = Duration.parse(value);
            if (d.isNegative()) {
                throw new TypeConversionException("Negative duration: " + value);
            }
            return d;
        } catch (DateTimeParseException | ArithmeticException | NumberFormatException e) {
            throw new TypeConversionException("Invalid duration: " + value + " (use 90s, 15m, 1h, 2d or ISO-8601 such as PT1H)");
        }
    }
}
