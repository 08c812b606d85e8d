{#- Uncertainty (SPEC §7): the numbers behind std_error and the confidence interval, in plain
    Jinja (the engines have no normal quantile, and dbt's Jinja has no math module; `**` is all
    there is, so exp(y) is e ** y and ln is found by Halley's iteration on it). -#}

{#- z with Phi(z) = p, as text: Acklam's rational approximation (relative error below 1.2e-9),
    then, for |z| < 3 (confidence up to 0.997), one Halley step on Phi, which leaves it within
    1e-12 (beyond that the series for Phi loses the digits the step would need). -#}
{% macro _normal_quantile(p) -%}
    {%- set a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.3577518672690, -30.66479806614716, 2.506628277459239] -%}
    {%- set b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572] -%}
    {%- set c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783] -%}
    {%- set d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416] -%}
    {%- set tail = p if p < 0.5 else 1 - p -%}
    {%- if tail >= 0.02425 -%}
        {%- set q = p - 0.5 -%}
        {%- set r = q * q -%}
        {%- set z = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
                    / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1) -%}
    {%- else -%}
        {%- set q = (-2 * (rank_metrics._ln(tail) | float)) ** 0.5 -%}
        {%- set lower = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                        / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1) -%}
        {%- set z = lower if p < 0.5 else -lower -%}
    {%- endif -%}
    {%- if z < 3 and z > -3 -%}
        {%- set error = (rank_metrics._normal_cdf(z) | float) - p -%}
        {%- set u = error * (2 * 3.141592653589793) ** 0.5 * 2.718281828459045 ** (z * z / 2) -%}
        {%- set z = z - u / (1 + z * u / 2) -%}
    {%- endif -%}
    {{- z -}}
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

{#- Phi(z) for |z| < 3, as text: erf's Taylor series, summed until the terms vanish. -#}
{% macro _normal_cdf(z) -%}
    {%- set x = z / 2 ** 0.5 -%}
    {%- set state = namespace(term=x, total=x) -%}
    {%- for n in range(1, 400) if state.term != 0 -%}
        {%- set state.term = -state.term * x * x / n -%}
        {%- set state.total = state.total + state.term / (2 * n + 1) -%}
    {%- endfor -%}
    {{- 0.5 + state.total / 3.141592653589793 ** 0.5 -}}
{%- endmacro %}
