package io.quire.node.lint;

import io.quire.journal.model.SchemaType;
import java.util.EnumSet;
import java.util.Set;

/**
 * Every lint rule, with the language it reads and the categories it belongs to. The Protobuf rules
 * carry buf's names and buf's categories (MINIMAL ⊂ BASIC ⊂ STANDARD, and COMMENTS apart); the Avro
 * and JSON Schema rules are Quire's, grouped the same way. {@link #PII_TAGGED} reads every language.
 * Rules in no category run only when named in {@code use}.
 */
public enum LintRule {
    // Protobuf, buf's rules that concern one file
    PACKAGE_DEFINED(SchemaType.PROTOBUF, Category.MINIMAL, "the file declares a package"),
    SYNTAX_SPECIFIED(SchemaType.PROTOBUF, Category.BASIC, "the file declares its syntax"),
    PACKAGE_LOWER_SNAKE_CASE(SchemaType.PROTOBUF, Category.BASIC, "the package is lower_snake_case.dot.separated"),
    MESSAGE_PASCAL_CASE(SchemaType.PROTOBUF, Category.BASIC, "messages are PascalCase"),
    FIELD_LOWER_SNAKE_CASE(SchemaType.PROTOBUF, Category.BASIC, "fields are lower_snake_case"),
    FIELD_NOT_REQUIRED(SchemaType.PROTOBUF, Category.BASIC, "no field is required (proto2)"),
    ONEOF_LOWER_SNAKE_CASE(SchemaType.PROTOBUF, Category.BASIC, "oneofs are lower_snake_case"),
    ENUM_PASCAL_CASE(SchemaType.PROTOBUF, Category.BASIC, "enums are PascalCase"),
    ENUM_VALUE_UPPER_SNAKE_CASE(SchemaType.PROTOBUF, Category.BASIC, "enum values are UPPER_SNAKE_CASE"),
    ENUM_FIRST_VALUE_ZERO(SchemaType.PROTOBUF, Category.BASIC, "an enum's first value is 0"),
    ENUM_NO_ALLOW_ALIAS(SchemaType.PROTOBUF, Category.BASIC, "no enum sets allow_alias"),
    IMPORT_NO_PUBLIC(SchemaType.PROTOBUF, Category.BASIC, "no import is public"),
    SERVICE_PASCAL_CASE(SchemaType.PROTOBUF, Category.BASIC, "services are PascalCase"),
    RPC_PASCAL_CASE(SchemaType.PROTOBUF, Category.BASIC, "RPCs are PascalCase"),
    ENUM_VALUE_PREFIX(SchemaType.PROTOBUF, Category.STANDARD, "enum values start with the enum's UPPER_SNAKE_CASE name"),
    ENUM_ZERO_VALUE_SUFFIX(SchemaType.PROTOBUF, Category.STANDARD, "an enum's zero value ends with _UNSPECIFIED"),
    PACKAGE_VERSION_SUFFIX(SchemaType.PROTOBUF, Category.STANDARD, "the package's last part is a version (v1, v1beta1)"),
    SERVICE_SUFFIX(SchemaType.PROTOBUF, Category.STANDARD, "services end with Service"),
    RPC_REQUEST_STANDARD_NAME(SchemaType.PROTOBUF, Category.STANDARD, "an RPC's request is <Rpc>Request or <Service><Rpc>Request"),
    RPC_RESPONSE_STANDARD_NAME(SchemaType.PROTOBUF, Category.STANDARD, "an RPC's response is <Rpc>Response or <Service><Rpc>Response"),
    RPC_REQUEST_RESPONSE_UNIQUE(SchemaType.PROTOBUF, Category.STANDARD, "each request and response type serves one RPC"),
    COMMENT_MESSAGE(SchemaType.PROTOBUF, Category.COMMENTS, "messages have a comment"),
    COMMENT_FIELD(SchemaType.PROTOBUF, Category.COMMENTS, "fields have a comment"),
    COMMENT_ONEOF(SchemaType.PROTOBUF, Category.COMMENTS, "oneofs have a comment"),
    COMMENT_ENUM(SchemaType.PROTOBUF, Category.COMMENTS, "enums have a comment"),
    COMMENT_ENUM_VALUE(SchemaType.PROTOBUF, Category.COMMENTS, "enum values have a comment"),
    COMMENT_SERVICE(SchemaType.PROTOBUF, Category.COMMENTS, "services have a comment"),
    COMMENT_RPC(SchemaType.PROTOBUF, Category.COMMENTS, "RPCs have a comment"),

    // Avro
    AVRO_NAMESPACE_DEFINED(SchemaType.AVRO, Category.MINIMAL, "named types have a namespace"),
    AVRO_NAME_PASCAL_CASE(SchemaType.AVRO, Category.BASIC, "records, enums and fixed types are PascalCase"),
    AVRO_FIELD_LOWER_CAMEL_CASE(SchemaType.AVRO, Category.BASIC, "fields are lowerCamelCase"),
    AVRO_FIELD_LOWER_SNAKE_CASE(SchemaType.AVRO, null, "fields are lower_snake_case (instead of lowerCamelCase)"),
    AVRO_ENUM_SYMBOL_UPPER_SNAKE_CASE(SchemaType.AVRO, Category.BASIC, "enum symbols are UPPER_SNAKE_CASE"),
    AVRO_UNION_NULLABLE_ONLY(SchemaType.AVRO, Category.STANDARD, "a union is a type and null, nothing more"),
    AVRO_UNION_NULL_FIRST(SchemaType.AVRO, Category.STANDARD, "a nullable field's union has null first and a null default"),
    AVRO_RECORD_DOC(SchemaType.AVRO, Category.COMMENTS, "records have a doc"),
    AVRO_FIELD_DOC(SchemaType.AVRO, Category.COMMENTS, "fields have a doc"),

    // JSON Schema
    JSON_DRAFT_DECLARED(SchemaType.JSON, Category.BASIC, "the document declares its draft ($schema)"),
    JSON_PROPERTY_LOWER_CAMEL_CASE(SchemaType.JSON, Category.BASIC, "properties are lowerCamelCase"),
    JSON_PROPERTY_LOWER_SNAKE_CASE(SchemaType.JSON, null, "properties are lower_snake_case (instead of lowerCamelCase)"),
    JSON_ADDITIONAL_PROPERTIES_STATED(SchemaType.JSON, Category.STANDARD, "every object states additionalProperties"),
    JSON_DESCRIPTION(SchemaType.JSON, Category.COMMENTS, "the document and its properties have a description"),

    // every language
    PII_TAGGED(null, Category.MINIMAL, "a field whose name matches a PII pattern carries the PII tag");

    /** The categories: each of the first three holds the one before it; COMMENTS stands apart. */
    public enum Category {
        MINIMAL, BASIC, STANDARD, COMMENTS;

        /** The categories a profile of this name runs. */
        static Set<Category> profile(String name) {
            return switch (name) {
                case "NONE" -> EnumSet.noneOf(Category.class);
                case "MINIMAL" -> EnumSet.of(MINIMAL);
                case "BASIC" -> EnumSet.of(MINIMAL, BASIC);
                case "STANDARD" -> EnumSet.of(MINIMAL, BASIC, STANDARD);
                default -> throw new IllegalArgumentException("no lint profile " + name
                        + " (NONE, MINIMAL, BASIC, STANDARD)");
            };
        }
    }

    /** The language it reads; null: every language. */
    public final SchemaType language;
    /** The category it belongs to; null: none (only when named). */
    public final Category category;
    public final String description;

    LintRule(SchemaType language, Category category, String description) {
        this.language = language;
        this.category = category;
        this.description = description;
    }
}
