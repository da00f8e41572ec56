# Проверка ваших функций. CASES (ячейка выше) — случаи: входы и ответ, вычисленный ядром
# книги (тем же кодом на Rust, что рисует её рисунки); допуск 1e-9·max(1, |ответ|).
import dataclasses

import numpy as np

TOLERANCE = 1e-9
RESULTS = {}


def _arg(value):
    """Вход случая: списки — массивом NumPy (каждый раз новым), прочее — как есть."""
    return np.array(value) if isinstance(value, list) else value


def _short(value):
    text = np.array2string(np.asarray(value), precision=6, separator=", ", threshold=12, max_line_width=10**6)
    return text if len(text) <= 160 else text[:157] + "…"


def _outputs(result, names):
    """Ответ функции по именам выходов: одно значение, кортеж, dict или dataclass."""
    if len(names) == 1:
        return {names[0]: result}
    if isinstance(result, dict):
        return {n: result.get(n) for n in names}
    if dataclasses.is_dataclass(result) or hasattr(result, "_asdict"):
        return {n: getattr(result, n, None) for n in names}
    if isinstance(result, (tuple, list)) and len(result) == len(names):
        return dict(zip(names, result))
    raise TypeError(f"ожидались {len(names)} значения: {', '.join(names)}")


def _difference(actual, expected):
    """None, если совпадает; иначе — чем отличается (по-русски)."""
    if expected is None:
        return None if actual is None else f"ожидалось None, получено {_short(actual)}"
    if actual is None:
        return "функция вернула None — забыт return?"
    try:
        a = np.asarray(actual, dtype=float)
    except (TypeError, ValueError):
        return f"получено не число и не массив чисел: {type(actual).__name__}"
    e = np.asarray(expected, dtype=float)
    if a.shape != e.shape:
        return f"форма {a.shape}, а нужна {e.shape}"
    if not np.all(np.isfinite(a)):
        return "в ответе nan или inf: где-то exp или деление получили то, чего не должны"
    bad = np.abs(a - e) > TOLERANCE * np.maximum(1.0, np.abs(e))
    if not bad.any():
        return None
    if a.ndim == 0:
        return f"получено {float(a):.10g}, а нужно {float(e):.10g}"
    where = [int(i) for i in np.argwhere(bad)[0]]
    return (f"первое расхождение в позиции {where}: {a[tuple(where)]:.10g} вместо {e[tuple(where)]:.10g}"
            f"\n      нужно:    {_short(e)}\n      получено: {_short(a)}")


def _compare(result, expected):
    try:
        got = _outputs(result, list(expected))
    except TypeError as e:
        return str(e)
    for name, want in expected.items():
        d = _difference(got[name], want)
        if d is not None:
            return f"{name}: {d}" if len(expected) > 1 else d
    return None


def _run(fn, case):
    """(None, ответ) — пройден; (текст, ответ) — не пройден; ("stub", None) — заготовка."""
    inputs = {k: _arg(v) for k, v in case["inputs"].items()}
    try:
        result = fn(**inputs)
    except NotImplementedError:
        return "stub", None
    except Exception as e:  # noqa: BLE001 — любая ошибка функции — ответ для проверки
        if case["error"]:
            return None, None
        return f"функция упала: {type(e).__name__}: {e}", None
    if case["error"]:
        return f"на недопустимом входе ожидалась ошибка (raise ValueError), а вернулось {_short(result) if not isinstance(result, (tuple, dict)) else 'значение'}", result
    return _compare(result, case["expected"]), result


def _non_finite(result):
    values = result.values() if isinstance(result, dict) else result if isinstance(result, tuple) else [result]
    try:
        return any(not np.all(np.isfinite(np.asarray(v, dtype=float))) for v in values)
    except (TypeError, ValueError):
        return False


def _hint(case, result):
    """Подсказка типичной ошибки, чей ответ совпал с вашим (None — ошибка даёт nan/inf)."""
    for mistake in case.get("mistakes", []):
        if result is None:
            break
        if mistake["output"] is None:
            if _non_finite(result):
                return mistake["hint"]
        elif _compare(result, mistake["output"]) is None:
            return mistake["hint"]
    return None


def check(*functions, show=2):
    """Проверяет функции на всех случаях; печатает, какие не прошли и почему.
    Пример: check(reward_to_go) или check(ppo_clipped_terms, ppo_diagnostics)."""
    ok_all = True
    for fn in functions:
        name = getattr(fn, "__name__", str(fn))
        cases = CASES.get(name)
        if not cases:
            print(f"✗ {name}: для этой функции нет проверочных случаев (имя как в заготовке?)")
            ok_all = False
            continue
        failed = []
        for case in cases:
            problem, result = _run(fn, case)
            if problem == "stub":
                print(f"✗ {name}: функция ещё не написана (raise NotImplementedError). "
                      "Замените эту строку своим кодом и запустите проверку снова.")
                failed = cases
                break
            if problem is not None:
                failed.append((case, problem, result))
        else:
            passed = len(cases) - len(failed)
            if not failed:
                print(f"✓ {name}: пройдены все случаи ({len(cases)}).")
            else:
                print(f"✗ {name}: пройдено {passed} из {len(cases)}.")
                for case, problem, result in failed[:show]:
                    args = ", ".join(f"{k}={_short(v)}" for k, v in case["inputs"].items())
                    print(f"  Случай «{case['about']}»\n    входы: {args}\n    {problem}")
                    hint = _hint(case, result)
                    if hint:
                        print(f"    Подсказка: {hint}")
                if len(failed) > show:
                    print(f"  … и ещё не пройдено: {len(failed) - show}.")
        RESULTS[name] = not failed
        ok_all = ok_all and not failed
    return ok_all


def summary():
    """Итог по всем проверенным функциям."""
    done = sum(RESULTS.values())
    print(f"Итого: написано верно {done} из {len(RESULTS)} проверенных функций.")
    for name, ok in RESULTS.items():
        print(f"  {'✓' if ok else '✗'} {name}")
