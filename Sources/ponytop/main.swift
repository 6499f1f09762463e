print("ponytop: not built yet")
