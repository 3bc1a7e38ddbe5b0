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
import java.util.UUID;

import dev.storh.spring.data.mapping.Document;
import dev.storh.spring.data.mapping.Indexed;

import org.springframework.data.annotation.Id;

/**
 * One property pair per simple type the converter supports: {@code <type>Idx} carries an index
 * (a range index where the type allows one), {@code <type>Plain} the same value without index.
 * Generated shape; see {@link TypeMatrixTests}.
 */
@Document(collection = "typed")
public class TypedRecord {

    /** An enum stored by name. */
    public enum Level {

        /** Sorts first by declaration, last by name. */
        ZERO, ALPHA, MIDDLE, BETA, OMEGA

    }

    @Id
    public String id;

    @Indexed(range = true)
    public byte byteIdx;

    public byte bytePlain;

    @Indexed(range = true)
    public Byte byteBoxIdx;

    public Byte byteBoxPlain;

    @Indexed(range = true)
    public short shortIdx;

    public short shortPlain;

    @Indexed(range = true)
    public Short shortBoxIdx;

    public Short shortBoxPlain;

    @Indexed(range = true)
    public int intIdx;

    public int intPlain;

    @Indexed(range = true)
    public Integer intBoxIdx;

    public Integer intBoxPlain;

    @Indexed(range = true)
    public long longIdx;

    public long longPlain;

    @Indexed(range = true)
    public Long longBoxIdx;

    public Long longBoxPlain;

    @Indexed(range = true)
    public float floatIdx;

    public float floatPlain;

    @Indexed(range = true)
    public Float floatBoxIdx;

    public Float floatBoxPlain;

    @Indexed(range = true)
    public double doubleIdx;

    public double doublePlain;

    @Indexed(range = true)
    public Double doubleBoxIdx;

    public Double doubleBoxPlain;

    @Indexed(range = true)
    public BigDecimal bigDecimalIdx;

    public BigDecimal bigDecimalPlain;

    @Indexed(range = true)
    public BigInteger bigIntegerIdx;

    public BigInteger bigIntegerPlain;

    @Indexed(range = true)
    public String stringIdx;

    public String stringPlain;

    @Indexed(range = true)
    public boolean boolIdx;

    public boolean boolPlain;

    @Indexed(range = true)
    public LocalDate localDateIdx;

    public LocalDate localDatePlain;

    @Indexed(range = true)
    public LocalDateTime localDateTimeIdx;

    public LocalDateTime localDateTimePlain;

    @Indexed(range = true)
    public LocalTime localTimeIdx;

    public LocalTime localTimePlain;

    @Indexed(range = true)
    public Instant instantIdx;

    public Instant instantPlain;

    @Indexed(range = true)
    public YearMonth yearMonthIdx;

    public YearMonth yearMonthPlain;

    @Indexed
    public OffsetDateTime offsetDateTimeIdx;

    public OffsetDateTime offsetDateTimePlain;

    @Indexed
    public ZonedDateTime zonedDateTimeIdx;

    public ZonedDateTime zonedDateTimePlain;

    @Indexed
    public UUID uuidIdx;

    public UUID uuidPlain;

    @Indexed
    public Level levelIdx;

    public Level levelPlain;

}
