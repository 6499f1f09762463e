print("ponybench: not built yet")
