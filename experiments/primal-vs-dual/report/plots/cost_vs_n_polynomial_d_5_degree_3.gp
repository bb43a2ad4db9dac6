# kexp plot; run `gnuplot cost_vs_n_polynomial_d_5_degree_3.gp` here to redraw cost_vs_n_polynomial_d_5_degree_3.svg
set terminal svg size 1000,708 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_polynomial_d_5_degree_3.svg'
set title 'time against n: polynomial d=5 degree=3 on cubic'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 8
set label 100 'dual_gd: iterations = 50, tolerance = 0.' at screen 0.01, screen 0.1130 left font ',12'
set label 101 'primal_gd: iterations = 50, tolerance = 0.' at screen 0.01, screen 0.0819 left font ',12'
set label 102 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0508 left font ',12'
set label 103 'The primal map''s dimension D = 56 is below every n drawn.' at screen 0.01, screen 0.0198 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('80' 80, '160' 160, '400' 400, '800' 800, '1600' 1600, '3200' 3200, '6400' 6400)
set logscale x
set logscale y
$line0 << EOD
80 7.061249999999999e-05 6.5606e-05 0.00014576900000000002
160 0.000253191 0.000241837 0.004619326
400 0.0010575455 0.000930786 0.0055974829999999995
800 0.017125564500000003 0.015035666999999999 0.025345791
1600 0.06682463899999999 0.06452404499999999 0.090950188
3200 0.35002413475000005 0.31106349200000005 0.38652855799999997
6400 2.32236160475 2.187547614 2.450840982
EOD
$line1 << EOD
80 3.3307e-05 3.1495e-05 0.00012469600000000001
160 0.0001306415 0.00012072 0.000338308
400 0.0009655449999999999 0.000853006 0.005557193
800 0.007118916 0.004844748 0.018503493
1600 0.045649655 0.039028377999999996 0.073130836
3200 0.33532072275 0.290394621 0.38212331599999994
6400 1.99920308775 1.92953044 2.063602537
EOD
$line2 << EOD
80 5.8433999999999997e-05 5.5227e-05 0.00016540400000000002
160 0.0001369495 0.000129035 0.00025047700000000003
400 0.000322703 0.000305815 0.0038304600000000004
800 0.0006448875 0.000617541 0.004979118
1600 0.0011966285 0.000983869 0.012171823000000002
3200 0.002368783 0.002226294 0.010922116
6400 0.01962916275 0.015210784000000001 0.033217827
EOD
$line3 << EOD
80 2.64055e-05 2.4331e-05 0.00018695500000000002
160 4.3655499999999996e-05 3.6580000000000006e-05 0.000254349
400 8.71705e-05 7.8243e-05 0.00036693
800 0.0001555555 0.00014556699999999998 0.000586115
1600 0.0002774435 0.000257516 0.000947107
3200 0.000643201 0.0005529210000000001 0.0052341770000000004
6400 0.0014047740000000001 0.00120416 0.013673096
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'dual_gd (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual)', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_gd (primal)', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'primal_ridge (primal)'
