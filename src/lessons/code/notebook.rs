//! The notebook to take home (nbformat 4): the coding exercises' tasks, stubs (or, in the
//! teacher's copy, our solutions), the core's test vectors as data and a `check(...)` per
//! exercise. It needs only Python 3 with NumPy: no network, no book.

use super::python::CHECKER;
use super::{cases_by_function, exercises, source, stub};
use crate::Result;
use serde_json::{json, Value};

/// A cell's source as nbformat keeps it: lines, each but the last ending in a newline.
fn lines(text: &str) -> Value {
    let text = text.trim_end_matches('\n');
    let mut out: Vec<String> = text.split_inclusive('\n').map(String::from).collect();
    if out.is_empty() {
        out.push(String::new());
    }
    json!(out)
}

fn markdown(text: &str) -> Value {
    json!({ "cell_type": "markdown", "metadata": {}, "source": lines(text) })
}

fn code(text: &str, hidden: bool) -> Value {
    let metadata = if hidden {
        json!({ "jupyter": { "source_hidden": true } })
    } else {
        json!({})
    };
    json!({
        "cell_type": "code",
        "execution_count": null,
        "metadata": metadata,
        "outputs": [],
        "source": lines(text),
    })
}

/// The notebook as JSON text: the student's copy (stubs) or, with `teacher`, the teacher's
/// (our solutions in place of the stubs, every check passes).
pub fn notebook(teacher: bool) -> Result<String> {
    let mut cells = vec![markdown(&format!(
        "# pgbook: напишите сами{}\n\n\
         Упражнения учебника «Градиенты политики: от REINFORCE к PPO» на NumPy. Для каждого — \
         заготовка функции и проверка `check(...)`: она запускает вашу функцию на случаях, \
         ответы на которые вычислило ядро книги (тот же код на Rust, что рисует её рисунки), и \
         по-русски говорит, какой случай не прошёл, чем ответ отличается и, если ошибка \
         типичная, — в чём она.\n\n\
         Как работать: выполните две ячейки ниже (данные и проверку), затем в каждом \
         упражнении замените `raise NotImplementedError(...)` своим кодом и выполните ячейку \
         с `check`. Нужен только Python 3 с NumPy; интернет не нужен. В конце `summary()` \
         подводит итог.",
        if teacher {
            " — копия преподавателя (с решениями)"
        } else {
            ""
        }
    ))];
    let data = serde_json::to_string(&cases_by_function()?)
        .map_err(|e| crate::Error::parse("the notebook", "", e))?;
    cells.push(code(
        &format!(
            "# Проверочные случаи: входы и ответы ядра книги. Менять не нужно.\nimport json\n\nimport numpy as np\n\nCASES = json.loads(r'''{data}''')"
        ),
        true,
    ));
    cells.push(code(CHECKER, true));
    for (i, ex) in exercises()?.iter().enumerate() {
        let task = ex.task.split_whitespace().collect::<Vec<_>>().join(" ");
        cells.push(markdown(&format!(
            "## {}. {}\n\n{}\n\nФормулы — в книге, на странице {}.",
            i + 1,
            ex.title,
            task,
            ex.lesson
        )));
        let body: Result<Vec<String>> = ex
            .functions
            .iter()
            .map(|f| {
                if teacher {
                    source(f).map(str::to_string)
                } else {
                    stub(f)
                }
            })
            .collect();
        cells.push(code(&body?.join("\n\n"), false));
        cells.push(code(&format!("check({})", ex.functions.join(", ")), false));
    }
    cells.push(markdown("## Итог"));
    cells.push(code("summary()", false));
    // nbformat 4.5 names every cell; stable ids keep two builds' notebooks alike.
    for (i, cell) in cells.iter_mut().enumerate() {
        if let Value::Object(fields) = cell {
            fields.insert("id".into(), json!(format!("cell-{i}")));
        }
    }
    let nb = json!({
        "cells": cells,
        "metadata": {
            "kernelspec": { "display_name": "Python 3", "language": "python", "name": "python3" },
            "language_info": { "name": "python" },
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    });
    serde_json::to_string_pretty(&nb).map_err(|e| crate::Error::parse("the notebook", "", e))
}
