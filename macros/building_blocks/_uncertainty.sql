{#- Uncertainty (SPEC §7): the numbers behind std_error and the confidence interval, in plain
    Jinja (the engines have no normal quantile, and dbt's Jinja has no math module; `**` is all
    there is, so exp(y) is e ** y and ln is found by Halley's iteration on it). -#}

{#- z of a two-sided interval: Phi(z) = (1 + confidence) / 2, as text. From the confidence itself,
    whose half (Phi(z) - 1/2) and tail ((1 - confidence) / 2, 1 - Phi(z)) a double holds exactly,
    where (1 + confidence) / 2 would round them (z was 9e-11 off at a confidence of 1e-6 and 3e-9
    at 1 - 1e-9). Acklam's rational approximation (relative error below 1.2e-9), then one Halley
    step on Phi, which leaves z within 1e-12: for z < 3 (confidence up to 0.997) on the series
    for Phi, beyond on the tail's continued fraction (the series loses the digits there: z was
    1e-9 off at 0.999, a check of SPEC §7 found). -#}
{% macro _normal_quantile_of_confidence(confidence) -%}
    {%- set a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.3577518672690, -30.66479806614716, 2.506628277459239] -%}
    {%- set b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572] -%}
    {%- set c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783] -%}
    {%- set d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416] -%}
    {%- set half = confidence / 2 -%}
    {%- set tail = (1 - confidence) / 2 -%}
    {%- if tail >= 0.02425 -%}
        {%- set r = half * half -%}
        {%- set z = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * half
                    / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1) -%}
    {%- else -%}
        {%- set q = (-2 * (rank_metrics._ln(tail) | float)) ** 0.5 -%}
        {%- set z = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                    / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1) -%}
    {%- endif -%}
    {#- Phi(z) - (1 + confidence) / 2, from the side of z that keeps its digits -#}
    {%- set error = (rank_metrics._normal_half_mass(z) | float) - half if z < 3
        else tail - (rank_metrics._normal_tail(z) | float) -%}
    {%- set u = error * (2 * 3.141592653589793) ** 0.5 * 2.718281828459045 ** (z * z / 2) -%}
    {{- z - u / (1 + z * u / 2) -}}
{%- endmacro %}

{#- ln(x) for x > 0, as text: ln(x) = 1024 ln(x^(1/1024)), the latter by Halley's iteration
    y <- y + 2 (r - e^y) / (r + e^y) from 0, which r = x^(1/1024), close to 1, makes quick. -#}
{% macro _ln(x) -%}
    {%- set root = x ** (1 / 1024) -%}
    {%- set state = namespace(y=0.0) -%}
    {%- for step in range(8) -%}
        {%- set power = 2.718281828459045 ** state.y -%}
        {%- set state.y = state.y + 2 * (root - power) / (root + power) -%}
    {%- endfor -%}
    {{- state.y * 1024 -}}
{%- endmacro %}

{#- 1 - Phi(z) for z >= 3, as text: erfc's continued fraction, e^(-x^2) / sqrt(pi) over
    x + (1/2) / (x + 1 / (x + (3/2) / (x + …))), x = z / sqrt 2, summed from its 100th term. -#}
{% macro _normal_tail(z) -%}
    {%- set x = z / 2 ** 0.5 -%}
    {%- set state = namespace(fraction=x) -%}
    {%- for n in range(100, 0, -1) -%}
        {%- set state.fraction = x + (n / 2) / state.fraction -%}
    {%- endfor -%}
    {{- 0.5 * 2.718281828459045 ** (-x * x) / 3.141592653589793 ** 0.5 / state.fraction -}}
{%- endmacro %}

{#- Phi(z) - 1/2 for |z| < 3, as text: erf's Taylor series, summed until the terms vanish. -#}
{% macro _normal_half_mass(z) -%}
    {%- set x = z / 2 ** 0.5 -%}
    {%- set state = namespace(term=x, total=x) -%}
    {%- for n in range(1, 400) if state.term != 0 -%}
        {%- set state.term = -state.term * x * x / n -%}
        {%- set state.total = state.total + state.term / (2 * n + 1) -%}
    {%- endfor -%}
    {{- state.total / 3.141592653589793 ** 0.5 -}}
{%- endmacro %}
