# kexp plot; run `gnuplot cost_vs_n_polynomial_d_10_degree_2.gp` here to redraw cost_vs_n_polynomial_d_10_degree_2.svg
set terminal svg size 1000,796 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_polynomial_d_10_degree_2.svg'
set title 'time against n: polynomial d=10 degree=2 on cubic'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 12
set label 100 'dual_gd: alpha=0, iterations=50, tolerance=0' at screen 0.01, screen 0.2111 left font ',12'
set label 101 'kernel_ridge: lambda=0.001' at screen 0.01, screen 0.1834 left font ',12'
set label 102 'primal_gd: alpha=0, iterations=50, tolerance=0' at screen 0.01, screen 0.1558 left font ',12'
set label 103 'primal_ridge: lambda=0.001' at screen 0.01, screen 0.1281 left font ',12'
set label 104 'Crossover primal_gd / dual_gd: not resolved: times below 1 ms at n = 80 or 160.' at screen 0.01, screen 0.1005 left font ',12'
set label 105 'Crossover primal_ridge / kernel_ridge: not resolved: times below 1 ms at n = 80 or 160.' at screen 0.01, screen 0.0729 left font ',12'
set label 106 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0452 left font ',12'
set label 107 'The primal map''s dimension D = 66 is below every n drawn.' at screen 0.01, screen 0.0176 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('80' 80, '160' 160, '400' 400, '800' 800, '1600' 1600, '3200' 3200, '6400' 6400)
set logscale x
set logscale y
$line0 << EOD
80 6.7808e-05 5.3802e-05 0.00013166800000000001
160 0.000179245 0.000162196 0.000265801
400 0.001146123 0.001045359 0.0012973449999999999
800 0.0051647505 0.0048452470000000004 0.005583082
1600 0.0303389405 0.029006067 0.045938271
3200 0.20898292550000003 0.204284408 0.225163038
6400 1.1388047595000002 1.124410047 1.1544293300000001
EOD
$line1 << EOD
80 3.10435e-05 3.0448e-05 0.00011071900000000001
160 0.0001126685 0.000111319 0.00020163199999999998
400 0.000958955 0.0008668809999999999 0.001091205
800 0.0060089185 0.005805012 0.006820132
1600 0.03694199825 0.036590526 0.051038741
3200 0.265817898 0.260933603 0.282844537
6400 2.000499214 1.9929437700000001 2.011221581
EOD
$line2 << EOD
80 0.0001130435 7.452e-05 0.000219997
160 0.0001557095 0.000153901 0.000288616
400 0.000358032 0.000347906 0.000448449
800 0.0007360685 0.0006925410000000001 0.000935581
1600 0.001549206 0.0014687279999999999 0.003944204
3200 0.003497513 0.0033316649999999997 0.004962972
6400 0.0073442295000000005 0.006969454999999999 0.009548264
EOD
$line3 << EOD
80 3.5597000000000005e-05 3.4435e-05 0.000206812
160 5.3341e-05 5.2357999999999996e-05 0.00016595300000000002
400 0.00010705750000000001 0.000103785 0.00022867299999999998
800 0.000199189 0.000195219 0.000393544
1600 0.000412221 0.0003830649999999999 0.003386828
3200 0.0007873349999999999 0.000740661 0.002254305
6400 0.0016212120000000003 0.001506341 0.004801214
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'dual_gd (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual)', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_gd (primal)', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'primal_ridge (primal)'
