{#- Values a caller gives (a baseline, a threshold, a separator) reach SQL only as literals that
    read the same whatever the session's settings (SPEC §4), or as validated numbers. -#}

{#- 'true' when text spells a finite decimal number as SQL reads one: an optional minus, digits
    with at most one point, an optional exponent (none when `exponent` is false: a text baseline
    is the plain spelling Python's resampled tests read too). Nothing else ('--1' would be a comment, '1/3'
    an integer division on PostgreSQL, '(1+2j)' a syntax error, 'NaN' no number). -#}
{% macro _spells_a_number(text, exponent=true) -%}
    {%- set text = text | string -%}
    {%- if not exponent and 'e' in text.lower() -%}{{- '' -}}{%- else -%}
    {%- set mantissa, _, exponent = text.lower().partition('e') -%}
    {%- set digits = mantissa[1:] if mantissa.startswith('-') else mantissa -%}
    {%- set exponent_digits = exponent[1:] if exponent[:1] in ['-', '+'] else exponent -%}
    {{- 'true' if digits.replace('.', '', 1).isdigit() and digits.isascii()
                  and ('e' not in text.lower() or (exponent_digits.isdigit() and exponent_digits.isascii())) else '' -}}
    {%- endif -%}
{%- endmacro %}

{#- A number the caller gave, as an SQL literal in parentheses (a minus after another operator
    stays a minus): a Python int, float or Decimal, or a numpy number, that is finite. Anything
    else is an error naming `argument`. -#}
{% macro _number_literal(value, argument) -%}
    {%- if value is boolean or value is not number or not rank_metrics._spells_a_number(value) | trim -%}
        {{ exceptions.raise_compiler_error("rank_metrics: " ~ rank_metrics._mention(argument, value) ~ " must be a finite number (such as 2 or 0.5); got "
            ~ rank_metrics._shown_as_given(value)) }}
    {%- endif -%}
    ({{ value | string }})
{%- endmacro %}

{#- A text as literals the engine reads the same under every setting: each run of characters
    without one of `specials` between single quotes, each special character as chr(its code),
    joined by ||. Quotes are doubled by default__ alone, which reads them so everywhere. -#}
{% macro _text_as_parts(text, specials) -%}
    {%- set state = namespace(run='', parts=[]) -%}
    {%- for char in text -%}
        {%- if char in specials -%}
            {%- if state.run -%}{%- do state.parts.append("'" ~ state.run ~ "'") -%}{%- endif -%}
            {%- do state.parts.append('chr(' ~ specials[char] ~ ')') -%}
            {%- set state.run = '' -%}
        {%- else -%}
            {%- set state.run = state.run ~ char -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if state.run -%}{%- do state.parts.append("'" ~ state.run ~ "'") -%}{%- endif -%}
    {{- '(' ~ state.parts | join(' || ') ~ ')' -}}
{%- endmacro %}
