package dev.storh.spring.data.types;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.YearMonth;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.UUID;

import dev.storh.spring.data.repository.StorhRepository;
import dev.storh.spring.data.types.TypedRecord.Level;

/**
 * Equality and between derived queries on the indexed and the plain property of every type.
 */
public interface TypedRecordRepository extends StorhRepository<TypedRecord, String> {

    List<TypedRecord> findByByteIdx(byte value);

    List<TypedRecord> findByBytePlain(byte value);

    List<TypedRecord> findByByteIdxBetween(byte from, byte to);

    List<TypedRecord> findByBytePlainBetween(byte from, byte to);

    List<TypedRecord> findByByteBoxIdx(Byte value);

    List<TypedRecord> findByByteBoxPlain(Byte value);

    List<TypedRecord> findByByteBoxIdxBetween(Byte from, Byte to);

    List<TypedRecord> findByByteBoxPlainBetween(Byte from, Byte to);

    List<TypedRecord> findByShortIdx(short value);

    List<TypedRecord> findByShortPlain(short value);

    List<TypedRecord> findByShortIdxBetween(short from, short to);

    List<TypedRecord> findByShortPlainBetween(short from, short to);

    List<TypedRecord> findByShortBoxIdx(Short value);

    List<TypedRecord> findByShortBoxPlain(Short value);

    List<TypedRecord> findByShortBoxIdxBetween(Short from, Short to);

    List<TypedRecord> findByShortBoxPlainBetween(Short from, Short to);

    List<TypedRecord> findByIntIdx(int value);

    List<TypedRecord> findByIntPlain(int value);

    List<TypedRecord> findByIntIdxBetween(int from, int to);

    List<TypedRecord> findByIntPlainBetween(int from, int to);

    List<TypedRecord> findByIntBoxIdx(Integer value);

    List<TypedRecord> findByIntBoxPlain(Integer value);

    List<TypedRecord> findByIntBoxIdxBetween(Integer from, Integer to);

    List<TypedRecord> findByIntBoxPlainBetween(Integer from, Integer to);

    List<TypedRecord> findByLongIdx(long value);

    List<TypedRecord> findByLongPlain(long value);

    List<TypedRecord> findByLongIdxBetween(long from, long to);

    List<TypedRecord> findByLongPlainBetween(long from, long to);

    List<TypedRecord> findByLongBoxIdx(Long value);

    List<TypedRecord> findByLongBoxPlain(Long value);

    List<TypedRecord> findByLongBoxIdxBetween(Long from, Long to);

    List<TypedRecord> findByLongBoxPlainBetween(Long from, Long to);

    List<TypedRecord> findByFloatIdx(float value);

    List<TypedRecord> findByFloatPlain(float value);

    List<TypedRecord> findByFloatIdxBetween(float from, float to);

    List<TypedRecord> findByFloatPlainBetween(float from, float to);

    List<TypedRecord> findByFloatBoxIdx(Float value);

    List<TypedRecord> findByFloatBoxPlain(Float value);

    List<TypedRecord> findByFloatBoxIdxBetween(Float from, Float to);

    List<TypedRecord> findByFloatBoxPlainBetween(Float from, Float to);

    List<TypedRecord> findByDoubleIdx(double value);

    List<TypedRecord> findByDoublePlain(double value);

    List<TypedRecord> findByDoubleIdxBetween(double from, double to);

    List<TypedRecord> findByDoublePlainBetween(double from, double to);

    List<TypedRecord> findByDoubleBoxIdx(Double value);

    List<TypedRecord> findByDoubleBoxPlain(Double value);

    List<TypedRecord> findByDoubleBoxIdxBetween(Double from, Double to);

    List<TypedRecord> findByDoubleBoxPlainBetween(Double from, Double to);

    List<TypedRecord> findByBigDecimalIdx(BigDecimal value);

    List<TypedRecord> findByBigDecimalPlain(BigDecimal value);

    List<TypedRecord> findByBigDecimalIdxBetween(BigDecimal from, BigDecimal to);

    List<TypedRecord> findByBigDecimalPlainBetween(BigDecimal from, BigDecimal to);

    List<TypedRecord> findByBigIntegerIdx(BigInteger value);

    List<TypedRecord> findByBigIntegerPlain(BigInteger value);

    List<TypedRecord> findByBigIntegerIdxBetween(BigInteger from, BigInteger to);

    List<TypedRecord> findByBigIntegerPlainBetween(BigInteger from, BigInteger to);

    List<TypedRecord> findByStringIdx(String value);

    List<TypedRecord> findByStringPlain(String value);

    List<TypedRecord> findByStringIdxBetween(String from, String to);

    List<TypedRecord> findByStringPlainBetween(String from, String to);

    List<TypedRecord> findByBoolIdx(boolean value);

    List<TypedRecord> findByBoolPlain(boolean value);

    List<TypedRecord> findByBoolIdxBetween(boolean from, boolean to);

    List<TypedRecord> findByBoolPlainBetween(boolean from, boolean to);

    List<TypedRecord> findByLocalDateIdx(LocalDate value);

    List<TypedRecord> findByLocalDatePlain(LocalDate value);

    List<TypedRecord> findByLocalDateIdxBetween(LocalDate from, LocalDate to);

    List<TypedRecord> findByLocalDatePlainBetween(LocalDate from, LocalDate to);

    List<TypedRecord> findByLocalDateTimeIdx(LocalDateTime value);

    List<TypedRecord> findByLocalDateTimePlain(LocalDateTime value);

    List<TypedRecord> findByLocalDateTimeIdxBetween(LocalDateTime from, LocalDateTime to);

    List<TypedRecord> findByLocalDateTimePlainBetween(LocalDateTime from, LocalDateTime to);

    List<TypedRecord> findByLocalTimeIdx(LocalTime value);

    List<TypedRecord> findByLocalTimePlain(LocalTime value);

    List<TypedRecord> findByLocalTimeIdxBetween(LocalTime from, LocalTime to);

    List<TypedRecord> findByLocalTimePlainBetween(LocalTime from, LocalTime to);

    List<TypedRecord> findByInstantIdx(Instant value);

    List<TypedRecord> findByInstantPlain(Instant value);

    List<TypedRecord> findByInstantIdxBetween(Instant from, Instant to);

    List<TypedRecord> findByInstantPlainBetween(Instant from, Instant to);

    List<TypedRecord> findByYearMonthIdx(YearMonth value);

    List<TypedRecord> findByYearMonthPlain(YearMonth value);

    List<TypedRecord> findByYearMonthIdxBetween(YearMonth from, YearMonth to);

    List<TypedRecord> findByYearMonthPlainBetween(YearMonth from, YearMonth to);

    List<TypedRecord> findByOffsetDateTimeIdx(OffsetDateTime value);

    List<TypedRecord> findByOffsetDateTimePlain(OffsetDateTime value);

    List<TypedRecord> findByZonedDateTimeIdx(ZonedDateTime value);

    List<TypedRecord> findByZonedDateTimePlain(ZonedDateTime value);

    List<TypedRecord> findByUuidIdx(UUID value);

    List<TypedRecord> findByUuidPlain(UUID value);

    List<TypedRecord> findByLevelIdx(Level value);

    List<TypedRecord> findByLevelPlain(Level value);

}
